import Foundation
import Messages
import ServiceKit
import ZeroMQ

/// fuel-lookup: answers `lookup.cheapest`, `lookup.nearest` and `station.get` from an in-memory
/// spatial index that a `ReplicaSync` thread keeps in step with price-ingest.
///
/// The request loop only reads the current index reference, so a rebuild never pauses answers.
public final class FuelLookupService {
    public let server: ReplyServer
    public let holder = IndexHolder()
    public let sync: SyncStatusBox
    private let handler: LookupHandler

    private static func answer(_ request: IncomingRequest,
                               _ lookup: (LookupRequest) throws(ServiceError) -> LookupReply) -> ReplyServer.Outcome {
        do {
            let body = try request.withBodyBytes { bytes, range throws(ServiceError) in
                try LookupRequestReader.read(bytes, range)
            }
            return request.reply(bodyJSON: LookupReplyWriter.write(try lookup(body)))
        } catch {
            return request.reply(error: ServiceError.from(error))
        }
    }

    public init(context: Context, bind endpoint: String, ingest: String, ingestPub: String, logger: Logger) throws {
        server = try ReplyServer(name: "fuel-lookup", context: context, bind: endpoint, logger: logger,
                                 maxRequestBytes: 64 << 10)
        let sync = ReplicaSync.start(context: context, ingest: ingest, ingestPub: ingestPub, holder: holder,
                                     logger: logger)
        self.sync = sync
        handler = LookupHandler(holder: holder, isReady: { sync.current.synced })
        // The hot path: bodies read and replies written by hand (see Wire/).
        server.on(MessageType.lookupCheapest.rawValue) { [handler] request in
            Self.answer(request) { body throws(ServiceError) in try handler.cheapest(body) }
        }
        server.on(MessageType.lookupNearest.rawValue) { [handler] request in
            Self.answer(request) { body throws(ServiceError) in try handler.nearest(body) }
        }
        server.on(.stationGet, StationGetRequest.self) { [handler] body, _ in try handler.station(body) }
        server.statsDetails = { [holder, sync] in
            let current = holder.load()
            let status = sync.current
            var details: [String: JSONValue] = [
                "version": .number(Double(current.version)),
                "stations": .number(Double(current.index.count)),
                "indexBytes": .number(Double(current.index.indexByteCount)),
                "synced": .bool(status.synced),
                "resyncs": .number(Double(status.resyncs)),
                "updatesApplied": .number(Double(status.updatesApplied)),
                "lastBuildSeconds": .number(status.lastBuildSeconds),
            ]
            if let error = status.lastError { details["lastSyncError"] = .string(error) }
            return details
        }
    }
}
