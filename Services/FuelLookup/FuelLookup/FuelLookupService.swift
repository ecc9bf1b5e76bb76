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

    public init(context: Context, bind endpoint: String, ingest: String, ingestPub: String, logger: Logger) throws {
        server = try ReplyServer(name: "fuel-lookup", context: context, bind: endpoint, logger: logger,
                                 maxRequestBytes: 64 << 10)
        let sync = ReplicaSync.start(context: context, ingest: ingest, ingestPub: ingestPub, holder: holder,
                                     logger: logger)
        self.sync = sync
        handler = LookupHandler(holder: holder, isReady: { sync.current.synced })
        server.on(.lookupCheapest, LookupRequest.self) { [handler] body, _ in try handler.cheapest(body) }
        server.on(.lookupNearest, LookupRequest.self) { [handler] body, _ in try handler.nearest(body) }
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
