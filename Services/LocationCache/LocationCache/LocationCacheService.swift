import Foundation
import Messages
import ServiceKit
import ZeroMQ

/// location-cache: per-user last-known location (with time and TTL) and preferences, in SQLite.
///
/// One loop thread owns the store and the ROUTER socket. A timer purges expired locations from
/// disk every `purgeInterval` (and once at start). The service keeps itself alive through its
/// server's handlers, so holding `server` is enough.
public final class LocationCacheService {
    public static let name = "location-cache"

    public let server: ReplyServer
    public let handler: LocationCacheHandler
    private let batch: WriteBatch
    /// Held while the service runs: one location-cache per data directory.
    private let directoryLock: DataDirectoryLock

    public init(context: Context, configuration: LocationCacheConfiguration, logger: Logger,
                log: EventLog? = nil) throws {
        let log = log ?? EventLog(logger: logger)
        directoryLock = try DataDirectoryLock(directory: configuration.dataDirectory, service: Self.name)
        server = try ReplyServer(name: Self.name, context: context, bind: configuration.endpoint, logger: logger,
                                 maxRequestBytes: configuration.maxRequestBytes)
        // The store is made only once the endpoint is taken: a start that cannot bind leaves none behind.
        let store = try LocationStore(directory: configuration.dataDirectory)
        handler = LocationCacheHandler(store: store, ttl: configuration.ttl, now: configuration.now, log: log)
        batch = WriteBatch(handler: handler, log: log)
        registerPut()
        registerForget()
        register(.locationGet, UserRequest.self, handler.get)
        register(.preferencesGet, UserRequest.self, handler.preferences)
        register(.preferencesSet, PreferencesUpdate.self, handler.setPreferences)
        server.afterBatch = { [batch] in batch.commit() }
        server.statsDetails = { [handler, batch] in
            batch.commit()  // counts what is on disk, not writes of a batch still open
            return handler.statsDetails().merging(["putBatches": .number(Double(batch.commits)),
                                                   "putsInBatches": .number(Double(batch.putsCommitted)),
                                                   "forgetsInBatches": .number(Double(batch.forgetsCommitted))]) { $1 }
        }
        server.after(.zero) { [handler, batch] in batch.commit(); handler.purgeExpired() }
        server.every(configuration.purgeInterval) { [handler, batch] in batch.commit(); handler.purgeExpired() }
        log.record(.info, "store open", counts: ["ttlSeconds": Int(handler.ttl)])
    }

    /// `location.put` joins the batch's transaction and its reply waits for the commit.
    private func registerPut() {
        server.on(MessageType.locationPut.rawValue) { [handler, batch] request in
            do {
                let body = try LocationPutRequest.read(from: request)
                    ?? RequestDecoding.body(LocationPutRequest.self, from: request.payload, requestType: .locationPut)
                try batch.join()
                let reply = try handler.put(body, requestID: request.logID)
                let (outcome, responder) = request.deferReply()
                batch.wait(responder, reply)
                return outcome
            } catch {
                return request.reply(error: ServiceError.from(error))
            }
        }
    }

    /// `location.forget` erases in the batch's transaction; its reply waits for the commit and
    /// the WAL emptied after it.
    private func registerForget() {
        server.on(MessageType.locationForget.rawValue) { [handler, batch] request in
            do {
                let body = try request.readBody(UserRequest.self)
                    ?? RequestDecoding.body(UserRequest.self, from: request.payload, requestType: .locationForget)
                try LocationRules.checkUser(body.user)
                try batch.join()
                let erasure = try handler.eraseInBatch(body, requestID: request.logID)
                let (outcome, responder) = request.deferReply()
                batch.wait(responder, erasure)
                return outcome
            } catch {
                return request.reply(error: ServiceError.from(error))
            }
        }
    }

    /// Registers a handler whose body is decoded with value-free error sentences. The open batch
    /// of writes is committed (and answered) first, so the handler comes after every put sent
    /// before it, on disk as in the replies.
    private func register<Body: Decodable & Sendable, Out: Encodable>(
        _ type: MessageType, _ body: Body.Type, _ work: @escaping (Body, String) throws(ServiceError) -> Out
    ) {
        server.on(type.rawValue) { [batch] request in
            batch.commit()
            do {
                let body = try request.readBody(Body.self)
                    ?? RequestDecoding.body(Body.self, from: request.payload, requestType: type)
                return request.reply(try work(body, request.logID))
            } catch {
                return request.reply(error: ServiceError.from(error))
            }
        }
    }
}
