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

    @Test func theWarmUp_printsAProgressLine_andCtrlCInIt_saysSoWithTheTimeItRan() throws {
        let server = try Self.coldServer(dropped: 0)
        defer { server.stop() }
        let cli = try ServiceProcess("fuelboard", ["loadtest", "--lookup", server.endpoint, "--points", "uniform",
                                                   "--concurrency", "2", "--warmup", "30s", "--duration", "5s"])
        try cli.waitForLog(timeout: .seconds(20)) { $0.hasPrefix("warming up: ") && $0.hasSuffix("s left") }
        kill(cli.pid, SIGINT)
        #expect(try cli.waitForExit(timeout: .seconds(10)) == 130)
        let warmup = try #require(cli.log.split(separator: "\n").first { $0.hasPrefix("warm-up     ") })
        #expect(warmup.hasPrefix("warm-up     interrupted after ") && warmup.hasSuffix(": nothing was measured"),
                "\(warmup)")
        // It ran one to a few seconds of its 30, and said how long.
        let seconds = Double(warmup.split(separator: " ").dropFirst(3).first ?? "") ?? 0
        #expect(seconds >= 1 && seconds < 20, "\(warmup)")
        #expect(cli.log.contains("FAILED      interrupted during the warm-up"))
        #expect(!cli.log.contains("after the warm-up"), "\(cli.log.suffix(900))")
    }

    @Test func aChartThatCannotBeWrittenAfterTheRun_exits73_afterTheReport() throws {
        let server = try Self.coldServer(dropped: 0)
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("loadtest-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cli = try ServiceProcess("fuelboard", ["loadtest", "--lookup", server.endpoint, "--points", "uniform",
                                                   "--warmup", "0s", "--duration", "2s", "--svg", directory + "/x.svg"])
        try cli.waitForLog(timeout: .seconds(20)) { $0.hasPrefix("[    1s]") }
        try FileManager.default.removeItem(atPath: directory)
        #expect(try cli.waitForExit(timeout: .seconds(10)) == 73)
        #expect(cli.log.contains("throughput  ") && cli.log.contains("cannot write chart to \(directory)/x.svg"),
                "\(cli.log.suffix(900))")
    }
}
