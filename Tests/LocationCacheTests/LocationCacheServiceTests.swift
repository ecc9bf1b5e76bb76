import Foundation
import LocationCache
import Messages
import ServiceKit
import ServiceTesting
import Testing
import ZeroMQ

/// The whole service over a real socket: `tcp://127.0.0.1:*`, a `RequestClient`, a real SQLite file.
struct LocationCacheServiceTests {
    private func start(_ directory: TemporaryDirectory, clock: TestClock, ttl: Duration = .seconds(24 * 3600),
                       purgeInterval: Duration = .seconds(60)) throws -> InProcessService {
        let url = directory.url
        return try InProcessService.start { context in
            var configuration = LocationCacheConfiguration(endpoint: "tcp://127.0.0.1:*", dataDirectory: url)
            configuration.ttl = ttl
            configuration.purgeInterval = purgeInterval
            configuration.now = clock.closure
            let service = try LocationCacheService(context: context, configuration: configuration,
                                                   logger: Logger(label: "location-cache", level: .critical),
                                                   log: EventLog { _ in })
            return service.server
        }
    }

    private func client(_ service: InProcessService) throws -> RequestClient {
        try RequestClient(context: Context(), endpoint: service.endpoint, timeout: .seconds(5), retries: 0)
    }

    private func errorCode(_ call: () throws -> some Any) -> ErrorCode? {
        do {
            _ = try call()
            return nil
        } catch {
            return (error as? ServiceError)?.code
        }
    }

    /// The error code of a request sent with a raw JSON body.
    private func rawErrorCode(_ client: RequestClient, _ type: MessageType, _ body: String) throws -> ErrorCode? {
        let data = try client.callRaw(type.rawValue, rawBody: Data(body.utf8))
        return try JSONCoding.decode(Reply<JSONValue>.self, from: data).error?.code
    }

    @Test func putGetForget_overTheSocket_roundTrip() throws {
        let directory = try TemporaryDirectory()
        let clock = TestClock()
        let service = try start(directory, clock: clock)
        defer { service.stop() }
        let client = try client(service)
        let put = try client.call(.locationPut, LocationPutRequest(user: "u1", lat: Canary.lat, lng: Canary.lng),
                                  as: LocationPutReply.self)
        #expect(put.stored && put.at == clock.now)
        clock.advance(by: 42)
        let location = try client.call(.locationGet, UserRequest(user: "u1"), as: LocationReply.self)
        #expect(location == LocationReply(lat: Canary.lat, lng: Canary.lng, at: TestClock.start, ageSeconds: 42))
        #expect(try client.call(.locationForget, UserRequest(user: "u1"), as: ForgetReply.self).forgotten)
        let afterForget = errorCode { try client.call(.locationGet, UserRequest(user: "u1"), as: LocationReply.self) }
        #expect(afterForget == .notFound)
    }

    @Test func preferences_overTheSocket_setClearAndGet() throws {
        let directory = try TemporaryDirectory()
        let service = try start(directory, clock: TestClock())
        defer { service.stop() }
        let client = try client(service)
        let update = PreferencesUpdate(user: "u1", radiusMiles: .set(10), unit: .set(.km))
        let set = try client.call(.preferencesSet, update, as: Preferences.self)
        #expect(set == Preferences(radiusMiles: 10, unit: .km))
        let cleared = try client.call(.preferencesSet, PreferencesUpdate(user: "u1", unit: .clear),
                                      as: Preferences.self)
        #expect(cleared == Preferences(radiusMiles: 10, unit: .miles))
        #expect(try client.call(.preferencesGet, UserRequest(user: "u1"), as: Preferences.self) == cleared)
        #expect(try client.call(.preferencesGet, UserRequest(user: "new"), as: Preferences.self) == .default)
    }

    @Test func badInput_overTheSocket_isBadRequestAndChangesNothing() throws {
        let directory = try TemporaryDirectory()
        let service = try start(directory, clock: TestClock())
        defer { service.stop() }
        let client = try client(service)
        _ = try client.call(.locationPut, LocationPutRequest(user: "u1", lat: 51.5, lng: -0.12),
                            as: LocationPutReply.self)
        _ = try client.call(.preferencesSet, PreferencesUpdate(user: "u1", radiusMiles: .set(15)), as: Preferences.self)
        let refusedPuts = [
            #"{"user":"u1","lat":"north","lng":0}"#, #"{"user":"u1","lat":1000,"lng":0}"#,
            #"{"user":"u1","lat":1e999,"lng":0}"#, #"{"user":"u1","lat":10,"lng":-999.5}"#,
            #"{"user":"u1","lng":3}"#, #"{"user":"","lat":1,"lng":1}"#, #"{"user":42,"lat":1,"lng":1}"#,
            #"{"user":"u1","lat":1,"lng":1,"at":"2099-01-01T00:00:00Z"}"#,
            #"{"user":"u1","lat":1,"lng":1,"at":"1999-01-01T00:00:00Z"}"#,
            #"{"user":"u1","lat":1,"lng":1,"at":"not a time"}"#, #"[51.5,-0.12]"#, "null",
        ]
        for body in refusedPuts {
            #expect(try rawErrorCode(client, .locationPut, body) == .badRequest, "body: \(body)")
        }
        let refusedPreferences = [
            #"{"user":"u1","radiusMiles":{"set":0}}"#, #"{"user":"u1","radiusMiles":{"set":51}}"#,
            #"{"user":"u1","radiusMiles":{"set":"ten"}}"#, #"{"user":"u1","radiusMiles":25}"#,
            #"{"user":"u1","unit":{"set":"furlongs"}}"#, #"{"user":"u1","radiusMiles":{"set":1e400}}"#,
        ]
        for body in refusedPreferences {
            #expect(try rawErrorCode(client, .preferencesSet, body) == .badRequest, "body: \(body)")
        }
        #expect(try rawErrorCode(client, .locationForget, #"{"user":["u1"]}"#) == .badRequest)
        let notJSON = try client.sendRaw(Data([0xff, 0x7b, 0x00]))
        #expect(try JSONCoding.decode(Reply<JSONValue>.self, from: notJSON).error?.code == .badRequest)

        let location = try client.call(.locationGet, UserRequest(user: "u1"), as: LocationReply.self)
        #expect(location.lat == 51.5 && location.lng == -0.12)
        #expect(try client.call(.preferencesGet, UserRequest(user: "u1"), as: Preferences.self).radiusMiles == 15)
    }

    @Test func restart_onTheSameDataDirectory_keepsLocationsAndPreferences() throws {
        let directory = try TemporaryDirectory()
        let clock = TestClock()
        do {
            let first = try start(directory, clock: clock)
            defer { first.stop() }
            let client = try client(first)
            _ = try client.call(.locationPut, LocationPutRequest(user: "u1", lat: 52.2, lng: 0.12),
                                as: LocationPutReply.self)
            _ = try client.call(.preferencesSet, PreferencesUpdate(user: "u1", unit: .set(.km)), as: Preferences.self)
        }
        let second = try start(directory, clock: clock)
        defer { second.stop() }
        let client = try client(second)
        #expect(try client.call(.locationGet, UserRequest(user: "u1"), as: LocationReply.self).lat == 52.2)
        #expect(try client.call(.preferencesGet, UserRequest(user: "u1"), as: Preferences.self).unit == .km)
    }

    @Test func purgeTimer_erasesExpiredLocationsFromDisk() throws {
        let directory = try TemporaryDirectory()
        let clock = TestClock()
        let service = try start(directory, clock: clock, ttl: .seconds(60), purgeInterval: .milliseconds(20))
        defer { service.stop() }
        let client = try client(service)
        _ = try client.call(.locationPut, LocationPutRequest(user: Canary.user, lat: Canary.lat, lng: Canary.lng),
                            as: LocationPutReply.self)
        clock.advance(by: 61)
        // Each round trip lets the loop run its timers; poll the figures until the purge shows.
        let deadline = ContinuousClock.now + .seconds(5)
        var purged = 0.0
        while purged < 1, ContinuousClock.now < deadline {
            let stats = try client.call(.sysStats, EmptyBody(), as: StatsBody.self)
            if case .number(let count) = stats.details["expiredPurged"] { purged = count }
        }
        #expect(purged == 1)
        #expect(try DiskBytes.filesContaining(DiskBytes.real(Canary.lat), in: directory.url).isEmpty)
        #expect(try DiskBytes.filesContaining(DiskBytes.text(Canary.user), in: directory.url).isEmpty)
    }

    @Test func ping_namesTheService() throws {
        let directory = try TemporaryDirectory()
        let service = try start(directory, clock: TestClock())
        defer { service.stop() }
        let ping = try client(service).call(.sysPing, EmptyBody(), as: PingBody.self)
        #expect(ping.service == "location-cache")
    }
}

/// The store's file deleted while location-cache runs: puts and settings were acknowledged into a
/// file nobody opens again, and the restart had every user's settings gone without a word (operator
/// QA). Writes are now refused saying so, and `sys.stats` says `storeFileGone`.
struct LocationStoreFileGoneTests {
    @Test func writes_afterTheStoreFileWasDeleted_areRefusedSayingSo() throws {
        let directory = try TemporaryDirectory()
        let clock = TestClock()
        let url = directory.url
        let service = try InProcessService.start { context in
            var configuration = LocationCacheConfiguration(endpoint: "tcp://127.0.0.1:*", dataDirectory: url)
            configuration.now = clock.closure
            return try LocationCacheService(context: context, configuration: configuration,
                                            logger: Logger(label: "location-cache", level: .critical),
                                            log: EventLog { _ in }).server
        }
        defer { service.stop() }
        let client = try RequestClient(context: Context(), endpoint: service.endpoint, timeout: .seconds(5), retries: 0)
        _ = try client.call(.locationPut, LocationPutRequest(user: "u1", lat: 53.7, lng: -1.1), as: LocationPutReply.self)
        var stats = try client.call(.sysStats, EmptyBody(), as: StatsBody.self)
        #expect(stats.details["storeFileGone"] == .bool(false))
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(at: url.appendingPathComponent(LocationStore.fileName + suffix))
        }
        let writes: [() throws -> Void] = [
            { _ = try client.call(.locationPut, LocationPutRequest(user: "u2", lat: 53.7, lng: -1.1),
                                  as: LocationPutReply.self) },
            { _ = try client.call(.preferencesSet, PreferencesUpdate(user: "u1", radiusMiles: .set(7)),
                                  as: Preferences.self) },
        ]
        for write in writes {
            do {
                try write()
                Issue.record("a write into a deleted store was acknowledged")
            } catch let error as ServiceError {
                #expect(error.code == .internal && error.message.contains("is gone"), "\(error.message)")
            }
        }
        stats = try client.call(.sysStats, EmptyBody(), as: StatsBody.self)
        #expect(stats.details["storeFileGone"] == .bool(true))
    }
}
