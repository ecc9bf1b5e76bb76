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
    private static func countingServer(_ peers: Peers, name: String = "peers") throws -> InProcessService {
        try InProcessService.start { context in
            let server = try ReplyServer(name: name, context: context, bind: "tcp://127.0.0.1:*",
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

    /// A list of replicas (as a topology gives them) is loaded across them all: every connection
    /// reaches each. It stopped the run with "zmq_connect(...): Invalid argument".
    @Test func aListOfReplicas_isLoadedAcrossThemAll() throws {
        let first = Peers(), second = Peers()
        let one = try Self.countingServer(first), two = try Self.countingServer(second)
        defer { one.stop(); two.stop() }
        let cli = try ServiceProcess("fuelboard", ["loadtest", "--lookup", "\(one.endpoint),\(two.endpoint)",
                                                   "--points", "uniform", "--connections", "2", "--concurrency", "4", "--warmup", "0s",
                                                   "--duration", "1s", "--json"])
        #expect(try cli.waitForExit(timeout: .seconds(30)) == 0, "\(cli.log.suffix(800))")
        let report = try jsonReport(in: cli.log)
        #expect((report["requests"] as? Int ?? 0) > 100 && report["timeouts"] as? Int == 0, "\(report)")
        #expect(first.count == 2 && second.count == 2, "peers seen: \(first.count), \(second.count)")
    }

    /// Another FuelBoard service at the endpoint is refused before the run (it ran the whole
    /// duration on unknown_type errors); a server of a name FuelBoard does not use is loaded.
    @Test func anotherFuelBoardServiceAtTheEndpoint_isRefusedBeforeTheRun() throws {
        let server = try Self.countingServer(Peers(), name: "price-ingest")
        defer { server.stop() }
        let cli = try ServiceProcess("fuelboard", ["loadtest", "--lookup", server.endpoint, "--points", "uniform",
                                                   "--warmup", "0s", "--duration", "1s"])
        #expect(try cli.waitForExit(timeout: .seconds(30)) == 64)
        #expect(cli.log.contains("\(server.endpoint) is price-ingest, not fuel-lookup: give --lookup the endpoint "
            + "of fuel-lookup"), "\(cli.log.suffix(800))")
        #expect(!cli.log.contains("loading "), "\(cli.log.suffix(800))")
    }

    /// More connections than libzmq's default 1,023 sockets a context: the run had failed after
    /// its start with "zmq_socket: Too many open files" (the options allow 4,032). The warm-up
    /// lets 1,100 connections finish their handshakes.
    @Test func moreConnectionsThanLibzmqsDefaultSocketLimit_allConnect() throws {
        let peers = Peers()
        let server = try Self.countingServer(peers)
        defer { server.stop() }
        let cli = try ServiceProcess("fuelboard", ["loadtest", "--lookup", server.endpoint, "--points", "uniform",
                                                   "--rate", "1000", "--connections", "1100", "--threads", "18",
                                                   "--warmup", "2s", "--duration", "1s", "--json"])
        #expect(try cli.waitForExit(timeout: .seconds(60)) == 0, "\(cli.log.suffix(800))")
        let report = try jsonReport(in: cli.log)
        #expect(report["connections"] as? Int == 1100 && report["timeouts"] as? Int == 0, "\(report)")
        #expect(peers.count == 1100)
    }
}
