import Foundation
import Messages
import ServiceKit
import ServiceTesting
import Testing
import ZeroMQ

/// A client given several endpoints (several routers in front) spreads its calls over those
/// that answer and skips one that is down.
struct RequestClientEndpointsTests {
    private static func pingService(_ name: String) throws -> InProcessService {
        try InProcessService.start { context in
            try ReplyServer(name: name, context: context, bind: "tcp://127.0.0.1:*",
                            logger: Logger(label: name, level: .critical))
        }
    }

    @Test func twoLiveEndpoints_shareTheCalls() throws {
        let first = try Self.pingService("first"), second = try Self.pingService("second")
        defer { first.stop(); second.stop() }
        let client = try RequestClient(context: Context(), endpoint: "\(first.endpoint), \(second.endpoint)",
                                       timeout: .seconds(2), retries: 2)
        // Only completed connections take requests (`immediate`): on a busy machine the second
        // handshake can finish after many calls went to the first. Call until both have answered
        // once (each call has its timeout; 5 s in all), then count how 40 calls are shared.
        var seen: Set<String> = []
        let deadline = ContinuousClock.now + .seconds(5)
        while seen.count < 2 && ContinuousClock.now < deadline {
            seen.insert(try client.call(.sysPing, EmptyBody(), as: PingBody.self).service)
        }
        #expect(seen == ["first", "second"], "both endpoints connected within 5 s")
        var answeredBy: [String: Int] = [:]
        for _ in 0..<40 {
            answeredBy[try client.call(.sysPing, EmptyBody(), as: PingBody.self).service, default: 0] += 1
        }
        #expect(answeredBy.values.reduce(0, +) == 40)
        #expect((answeredBy["first"] ?? 0) >= 5 && (answeredBy["second"] ?? 0) >= 5, "\(answeredBy)")
    }

    @Test func anEndpointThatIsDown_isSkipped() throws {
        let live = try Self.pingService("live")
        defer { live.stop() }
        let client = try RequestClient(context: Context(), endpoint: "\(try unservedEndpoint()),\(live.endpoint)",
                                       timeout: .seconds(1), retries: 2)
        for _ in 0..<20 {
            #expect(try client.call(.sysPing, EmptyBody(), as: PingBody.self).service == "live")
        }
    }

    @Test(.timeLimit(.minutes(1)))
    func everyEndpointDown_isUnavailableAfterTheAttempts_notAHang() throws {
        let client = try RequestClient(context: Context(),
                                       endpoint: "\(try unservedEndpoint()),\(try unservedEndpoint())",
                                       timeout: .milliseconds(200), retries: 1)
        let started = ContinuousClock.now
        #expect(throws: ServiceError.self) { try client.call(.sysPing, EmptyBody(), as: PingBody.self) }
        #expect(ContinuousClock.now - started < .seconds(5))
    }
}
