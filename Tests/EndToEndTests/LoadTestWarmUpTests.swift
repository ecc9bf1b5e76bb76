import Foundation
import ServiceKit
import ServiceTesting
import Testing
import ZeroMQ

/// What goes wrong during the warm-up stays out of the figures: a server that leaves the first
/// requests it gets unanswered (a cold start) and answers the rest gives a passing run without
/// timeouts.
struct LoadTestWarmUpTests {
    /// A server of `lookup.cheapest` that never answers the first `dropped` requests and answers
    /// every later one with an empty body.
    private static func coldServer(dropped: Int) throws -> InProcessService {
        try InProcessService.start { context in
            let server = try ReplyServer(name: "cold", context: context, bind: "tcp://127.0.0.1:*",
                                         logger: Logger(label: "cold", level: .error))
            var seen = 0
            server.on("lookup.cheapest") { request in
                seen += 1
                return seen > dropped ? request.reply(bodyJSON: Array(#"{"results":[]}"#.utf8)) : request.deferReply().0
            }
            return server
        }
    }

    @Test func requestsLostInTheWarmUp_areNotTimeoutsOfTheRun() throws {
        let server = try Self.coldServer(dropped: 3)
        defer { server.stop() }
        let cli = try ServiceProcess("fuelboard", ["loadtest", "--lookup", server.endpoint, "--points", "uniform",
                                                   "--concurrency", "3", "--warmup", "1s", "--duration", "1s",
                                                   "--timeout", "200ms", "--json"])
        #expect(try cli.waitForExit(timeout: .seconds(30)) == 0, "\(cli.log.suffix(800))")
        let report = try jsonReport(in: cli.log)
        #expect(report["timeouts"] as? Int == 0, "\(report)")
        #expect((report["requests"] as? Int ?? 0) > 0)
        #expect((report["warmupRequests"] as? Int ?? 0) > 0)
    }
}
