import Foundation
import LocationCache
import Messages
import ServiceKit
import ServiceTesting
import Testing
import ZeroMQ

/// `location.put` bodies are read from the members the envelope check found; every shape the
/// hand reader takes gives the same put, and every other one the decoder's answer, alone or in
/// a `sys.batch`.
struct PutBodyReadingTests {
    private func start(_ directory: TemporaryDirectory, clock: TestClock) throws -> InProcessService {
        let url = directory.url
        return try InProcessService.start { context in
            var configuration = LocationCacheConfiguration(endpoint: "tcp://127.0.0.1:*", dataDirectory: url)
            configuration.now = clock.closure
            return try LocationCacheService(context: context, configuration: configuration,
                                            logger: Logger(label: "location-cache", level: .critical),
                                            log: EventLog { _ in }).server
        }
    }

    private func client(_ service: InProcessService) throws -> RequestClient {
        try RequestClient(context: Context(), endpoint: service.endpoint, timeout: .seconds(5), retries: 0)
    }

    private func put(_ client: RequestClient, _ body: String) throws -> Reply<LocationPutReply> {
        try JSONCoding.decode(Reply<LocationPutReply>.self,
                              from: client.callRaw(MessageType.locationPut.rawValue, rawBody: Data(body.utf8)))
    }

    @Test(arguments: [
        (#"{"lng":-2.5,"user":"r1","lat":53.25}"#, "r1", 53.25, -2.5),
        (#"{"user":"r2","lat":1,"lng":2,"at":null}"#, "r2", 1, 2),
        (#"{"us\u0065r":"r4","lat":8,"lng":9,"extra":{"user":"other","lat":0}}"#, "r4", 8, 9),
        (#"{"user":"r\u00e9","lat":-0.5,"lng":0}"#, "r\u{e9}", -0.5, 0),
    ])
    func put_whenBodyHasAnAcceptedShape_storesWhatItSays(body: String, user: String, lat: Double, lng: Double) throws {
        let directory = try TemporaryDirectory()
        let clock = TestClock()
        let service = try start(directory, clock: clock)
        defer { service.stop() }
        let client = try client(service)
        let reply = try put(client, body)
        #expect(reply.body == LocationPutReply(stored: true, at: clock.now, expiresAt: clock.now + 24 * 3600,
                                               preferences: .default))
        let held = try client.call(.locationGet, UserRequest(user: user), as: LocationReply.self)
        #expect(held.lat == lat && held.lng == lng)
    }

    @Test func put_whenAtIsGiven_storesThatTime() throws {
        let directory = try TemporaryDirectory()
        let clock = TestClock()
        let service = try start(directory, clock: clock)
        defer { service.stop() }
        let reply = try put(try client(service), #"{"at":"2025-10-09T11:59:00Z","lat":1,"lng":2,"user":"a"}"#)
        #expect(reply.body?.at == clock.now - 60)
    }

    /// An `at` a little ahead (a device clock fast by minutes, allowed for) is taken as now: taken
    /// as given, the location outlived the TTL and the user's next ones were "older", not stored.
    @Test func put_whenAtIsALittleAhead_isTakenAsNow_andTheNextPutIsStored() throws {
        let directory = try TemporaryDirectory()
        let clock = TestClock()
        let service = try start(directory, clock: clock)
        defer { service.stop() }
        let client = try client(service)
        let ahead = try put(client, #"{"at":"2025-10-09T12:04:00Z","lat":1,"lng":2,"user":"a"}"#)
        #expect(ahead.body?.at == clock.now && ahead.body?.expiresAt == clock.now + 24 * 3600, "\(ahead)")
        let next = try put(client, #"{"lat":3,"lng":4,"user":"a"}"#)
        #expect(next.body?.stored == true, "\(next)")
    }

    @Test(arguments: [
        (#"{"user":"u1","lat":"north","lng":0}"#, #""lat" must be a number of degrees between -90 and 90"#),
        (#"{"lat":1,"lng":2}"#, #"missing field "user""#),
        (#"{"user":"u1","lat":1,"lng":2,"at":"yesterday"}"#, #""at" must be an ISO-8601 time with offset"#),
        (#"[1,2]"#, "body must be a JSON object"),
    ])
    func put_whenBodyIsRefused_saysWhatTheDecoderSays(body: String, reason: String) throws {
        let directory = try TemporaryDirectory()
        let service = try start(directory, clock: TestClock())
        defer { service.stop() }
        let error = try put(try client(service), body).error
        #expect(error?.code == .badRequest)
        #expect(error?.message == "bad body for location.put: \(reason)")
    }

    /// A latitude given twice was stored as the last one; which was meant cannot be known.
    @Test func put_whoseBodyNamesAMemberTwice_isRefused_andStoresNothing() throws {
        let directory = try TemporaryDirectory()
        let service = try start(directory, clock: TestClock())
        defer { service.stop() }
        let client = try client(service)
        let error = try put(client, #"{"user":"r3","lat":5,"lat":6,"lng":7}"#).error
        #expect(error?.code == .badRequest)
        #expect(error?.message.hasPrefix(#"request names "lat" twice in one object"#) == true, "\(String(describing: error))")
        let held = try JSONCoding.decode(Reply<LocationReply>.self, from: client.callRaw(
            MessageType.locationGet.rawValue, rawBody: Data(#"{"user":"r3"}"#.utf8)))
        #expect(held.error?.code == .notFound)
    }

    @Test func putsInASysBatch_areEachReadAndStored() throws {
        let directory = try TemporaryDirectory()
        let service = try start(directory, clock: TestClock())
        defer { service.stop() }
        let client = try client(service)
        var requests = (0..<15).map { index in
            #"{"v":1,"id":"p\#(index)","type":"location.put","#
                + #""body":{"user":"b\#(index)","lat":\#(50 + index),"lng":-1.5}}"#
        }
        requests.insert(#"{"v":1,"id":"bad","type":"location.put","body":{"user":"b99","lat":"x","lng":0}}"#, at: 7)
        let batch = #"{"requests":[\#(requests.joined(separator: ","))]}"#
        let data = try client.callRaw("sys.batch", rawBody: Data(batch.utf8))
        let outer = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let replies = try #require((outer["body"] as? [String: Any])?["replies"] as? [[String: Any]])
        #expect(replies.count == 16)
        #expect(replies.filter { $0["ok"] as? Bool == true }.count == 15)
        #expect(replies[7]["id"] as? String == "bad" && replies[7]["ok"] as? Bool == false)
        for index in 0..<15 {
            #expect(try client.call(.locationGet, UserRequest(user: "b\(index)"), as: LocationReply.self).lat
                    == Double(50 + index))
        }
    }
}
