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

    public init(context: Context, configuration: LocationCacheConfiguration, logger: Logger,
                log: EventLog? = nil) throws {
        let log = log ?? EventLog(logger: logger)
        let store = try LocationStore(directory: configuration.dataDirectory)
        handler = LocationCacheHandler(store: store, ttl: configuration.ttl, now: configuration.now, log: log)
        server = try ReplyServer(name: Self.name, context: context, bind: configuration.endpoint, logger: logger,
                                 maxRequestBytes: configuration.maxRequestBytes)
        register(.locationPut, LocationPutRequest.self, handler.put)
        register(.locationGet, UserRequest.self, handler.get)
        register(.locationForget, UserRequest.self, handler.forget)
        register(.preferencesGet, UserRequest.self, handler.preferences)
        register(.preferencesSet, PreferencesUpdate.self, handler.setPreferences)
        server.statsDetails = { [handler] in handler.statsDetails() }
        server.after(.zero) { [handler] in handler.purgeExpired() }
        server.every(configuration.purgeInterval) { [handler] in handler.purgeExpired() }
        log.record(.info, "store open", counts: ["ttlSeconds": Int(handler.ttl)])
    }

    /// Registers a handler whose body is decoded with value-free error sentences.
    private func register<Body: Decodable & Sendable, Out: Encodable>(
        _ type: MessageType, _ body: Body.Type, _ work: @escaping (Body, String) throws(ServiceError) -> Out
    ) {
        server.on(type.rawValue) { request in
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
