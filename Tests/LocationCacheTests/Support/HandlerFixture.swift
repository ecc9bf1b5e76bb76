import Foundation
import LocationCache
import Messages
import ServiceKit

/// Distinctive values whose bytes and digits can be searched for on disk and in logs.
enum Canary {
    static let user = "canary-user-7f3a9c"
    static let lat = 51.4816273
    static let lng = -0.1932751
    /// Digit runs of the coordinates that must never appear in a log line or error message.
    static let coordinateDigits = ["51.48", "4816273", "0.1932", "1932751"]
}

/// A handler on a real store in a temporary directory, with a hand-driven clock and captured logs.
final class HandlerFixture {
    let directory: TemporaryDirectory
    let clock = TestClock()
    let logs = LogCapture()
    private(set) var handler: LocationCacheHandler
    private var requestCounter = 0

    var store: LocationStore { handler.store }

    init(ttl: Duration = .seconds(24 * 3600)) throws {
        directory = try TemporaryDirectory()
        handler = LocationCacheHandler(store: try LocationStore(directory: directory.url), ttl: ttl,
                                       now: clock.closure, log: logs.log)
    }

    /// Closes the store and opens the same file again (a restart), optionally with another TTL.
    func reopen(ttl: Duration? = nil) throws {
        let ttl = ttl ?? .seconds(handler.ttl)
        handler.store.close()
        handler = LocationCacheHandler(store: try LocationStore(directory: directory.url), ttl: ttl,
                                       now: clock.closure, log: logs.log)
    }

    func nextID() -> String {
        requestCounter += 1
        return "req-\(requestCounter)"
    }

    @discardableResult
    func put(_ user: String = Canary.user, lat: Double = Canary.lat, lng: Double = Canary.lng,
             at: Date? = nil) throws(ServiceError) -> LocationPutReply {
        try handler.put(LocationPutRequest(user: user, lat: lat, lng: lng, at: at), requestID: nextID())
    }

    func get(_ user: String = Canary.user) throws(ServiceError) -> LocationReply {
        try handler.get(UserRequest(user: user), requestID: nextID())
    }

    @discardableResult
    func forget(_ user: String = Canary.user) throws(ServiceError) -> ForgetReply {
        try handler.forget(UserRequest(user: user), requestID: nextID())
    }

    func preferences(_ user: String = Canary.user) throws(ServiceError) -> Preferences {
        try handler.preferences(UserRequest(user: user), requestID: nextID())
    }

    @discardableResult
    func setPreferences(_ user: String = Canary.user, radius: SettingUpdate<Double>? = nil,
                        unit: SettingUpdate<DistanceUnit>? = nil) throws(ServiceError) -> Preferences {
        try handler.setPreferences(PreferencesUpdate(user: user, radiusMiles: radius, unit: unit), requestID: nextID())
    }

    /// The error code a call throws, or nil when it succeeds.
    func code<T>(_ call: () throws -> T) -> ErrorCode? {
        error(call)?.code
    }

    /// The error a call throws, or nil when it succeeds.
    func error<T>(_ call: () throws -> T) -> ServiceError? {
        do {
            _ = try call()
            return nil
        } catch {
            return error as? ServiceError ?? ServiceError(.internal, "not a ServiceError: \(error)")
        }
    }
}
