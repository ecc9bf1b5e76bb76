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

    private static func answer(_ request: IncomingRequest, cache: ReplyTextCache,
                               _ lookup: (LookupRequest) throws(ServiceError) -> LookupAnswer) -> ReplyServer.Outcome {
        do {
            let body = try LookupRequestReader.read(request)
            let answer = try lookup(body)
            return request.reply(capacity: 96 + answer.ranked.count * 400) { out in
                LookupReplyWriter.write(answer, cache: cache, into: &out)
            }
        } catch {
            return request.reply(error: ServiceError.from(error))
        }
    }

    public init(context: Context, bind endpoint: String, ingest: String, ingestPub: String, logger: Logger) throws {
        server = try ReplyServer(name: "fuel-lookup", context: context, bind: endpoint, logger: logger,
                                 maxRequestBytes: ReplyServer.smallRequestBytes)
        let sync = ReplicaSync.start(context: context, ingest: ingest, ingestPub: ingestPub, holder: holder,
                                     logger: logger)
        self.sync = sync
        handler = LookupHandler(holder: holder, isReady: { sync.current.synced })
        // The hot path: bodies read and replies written by hand (see Wire/).
        let cache = ReplyTextCache()
        server.on(MessageType.lookupCheapest.rawValue) { [handler] request in
            Self.answer(request, cache: cache) { body throws(ServiceError) in try handler.cheapestAnswer(body) }
        }
        server.on(MessageType.lookupNearest.rawValue) { [handler] request in
            Self.answer(request, cache: cache) { body throws(ServiceError) in try handler.nearestAnswer(body) }
        }
        server.on(.stationGet, StationGetRequest.self) { [handler] body, _ in try handler.station(body) }
        server.statsDetails = { [holder, sync, cache] in
            let current = holder.load()
            let status = sync.current
            var details: [String: JSONValue] = [
                "version": .number(Double(current.version)),
                "stations": .number(Double(current.index.count)),
                "indexBytes": .number(Double(current.index.indexByteCount)),
                "replyTextCacheBytes": .number(Double(cache.byteCount)),
                "replyTextCacheHits": .number(Double(cache.hits)),
                "replyTextCacheMisses": .number(Double(cache.misses)),
                "synced": .bool(status.synced),
                "inStep": .bool(status.inStep),
                "resyncs": .number(Double(status.resyncs)),
                "updatesApplied": .number(Double(status.updatesApplied)),
                "lastBuildSeconds": .number(status.lastBuildSeconds),
            ]
            if let error = status.lastError { details["lastSyncError"] = .string(error) }
            if let heard = status.lastHeard {
                let silence = ContinuousClock.now - heard
                details["ingestHeardSecondsAgo"] = .number(Double(silence.components.seconds))
            }
            return details
        }
    }
}
