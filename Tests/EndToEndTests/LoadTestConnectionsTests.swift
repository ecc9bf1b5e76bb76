import Foundation
@testable import ServiceKit
import ServiceTesting
import Synchronization
import Testing

/// `fuelboard loadtest --connections N` loads a server as N clients would: its requests arrive
/// from N peers, each connection keeps its share in flight, and every reply is counted.
struct LoadTestConnectionsTests {
    /// The routing ids of the peers requests came from, as the server saw them.
    private final class Peers: Sendable {
        let seen = Mutex<Set<Data>>([])
        var count: Int { seen.withLock { $0.count } }
    }

    /// A server of `lookup.cheapest` that answers every request and notes the peer it came from.
    private static func countingServer(_ peers: Peers) throws -> InProcessService {
        try InProcessService.start { context in
            let server = try ReplyServer(name: "peers", context: context, bind: "tcp://127.0.0.1:*",
                                         logger: Logger(label: "peers", level: .error))
            server.on("lookup.cheapest") { request in
                peers.seen.withLock { _ = $0.insert(request.route.first ?? Data()) }
                return request.reply(bodyJSON: Array(#"{"results":[]}"#.utf8))
            }
            return server
        }
    }

    @Test(arguments: [["--concurrency", "8"], ["--rate", "400"]])
    func requests_comeFromAsManyPeersAsConnections_andAreAllAnswered(mode: [String]) throws {
        let peers = Peers()
        let server = try Self.countingServer(peers)
        defer { server.stop() }
        let cli = try ServiceProcess("fuelboard", ["loadtest", "--lookup", server.endpoint, "--points", "uniform",
                                                   "--connections", "4", "--warmup", "0s", "--duration", "1s",
                                                   "--json"] + mode)
        #expect(try cli.waitForExit(timeout: .seconds(30)) == 0, "\(cli.log.suffix(800))")
        let report = try jsonReport(in: cli.log)
        #expect(report["connections"] as? Int == 4)
        #expect((report["requests"] as? Int ?? 0) > 100, "\(report)")
        #expect(report["timeouts"] as? Int == 0 && report["invalidReplies"] as? Int == 0)
        #expect(peers.count == 4)
    }

    @Test func theTextReport_saysHowManyConnectionsCarriedTheLoad() throws {
        let server = try Self.countingServer(Peers())
        defer { server.stop() }
        let cli = try ServiceProcess("fuelboard", ["loadtest", "--lookup", server.endpoint, "--points", "uniform",
                                                   "--connections", "3", "--concurrency", "6", "--warmup", "0s",
                                                   "--duration", "1s"])
        #expect(try cli.waitForExit(timeout: .seconds(30)) == 0, "\(cli.log.suffix(800))")
        #expect(cli.log.contains("mode        closed loop, 6 in flight over 3 connections"), "\(cli.log.suffix(800))")
    }

    @Test(arguments: [(["--threads", "2"], 2), (["--threads", "2", "--connections", "4"], 4)])
    func threads_eachSendOnConnectionsOfTheirOwn_andTheirRepliesAddUp(options: [String], peers count: Int) throws {
        let peers = Peers()
        let server = try Self.countingServer(peers)
        defer { server.stop() }
        let cli = try ServiceProcess("fuelboard", ["loadtest", "--lookup", server.endpoint, "--points", "uniform",
                                                   "--concurrency", "8", "--warmup", "0s", "--duration", "2s",
                                                   "--json"] + options)
        #expect(try cli.waitForExit(timeout: .seconds(30)) == 0, "\(cli.log.suffix(800))")
        let report = try jsonReport(in: cli.log)
        #expect(report["threads"] as? Int == 2 && report["connections"] as? Int == count)
        #expect(peers.count == count)
        let perSecond = try #require(report["perSecond"] as? [[String: Any]])
        let total = perSecond.compactMap { $0["requests"] as? Int }.reduce(0, +)
        let requests = try #require(report["requests"] as? Int)
        // Both threads' seconds, merged: together they hold every reply.
        #expect(perSecond.first?["second"] as? Int == 1 && perSecond.count <= 3, "\(perSecond)")
        #expect(total == requests, "\(total) of \(requests)")
        #expect(report["timeouts"] as? Int == 0 && report["invalidReplies"] as? Int == 0)
    }
}
