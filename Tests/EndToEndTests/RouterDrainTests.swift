import Foundation
import ServiceTesting
import Testing
import ZeroMQ

/// A stopped intent-router answers the asks it was working on before it exits (a rolling restart
/// drops none); a second signal stops it at once.
struct RouterDrainTests {
    /// Backends that never answer: every ask takes the deadline (1 s) and is then answered in the
    /// built-in English ("I can't reach..."). SIGTERM lands while one is in flight.
    private func routerWithSilentBackends() throws -> (ServiceProcess, Socket) {
        let router = try ServiceProcess("intent-router", [
            "--bind", "tcp://127.0.0.1:*", "--plugins", "tcp://127.0.0.1:*", "--deadline", "1s",
            "--lookup", try unservedEndpoint(), "--location", try unservedEndpoint(), "--dialog", try unservedEndpoint(),
        ])
        let socket = try Socket(Context(), .dealer)
        socket.receiveTimeout = .seconds(5)
        try socket.connect(try router.endpoint())
        return (router, socket)
    }

    /// Sends an ask, then a ping on the same connection: the ping's reply, which comes first (the
    /// ask waits for its backends), shows the router has taken the ask off its socket.
    private func askAndWaitUntilTaken(_ socket: Socket, id: String) throws {
        let ask = #"{"v":1,"id":"\#(id)","type":"assistant.ask","body":{"user":"drain-test","#
            + #""utterance":"Ask FuelBoard for the cheapest diesel near me","location":{"lat":53.78,"lng":-1.07}}}"#
        try socket.send([Data(), Data(ask.utf8)])
        try socket.send([Data(), Data(#"{"v":1,"id":"ping","type":"sys.ping","body":{}}"#.utf8)])
        let pong = String(decoding: try socket.receive().last ?? Data(), as: UTF8.self)
        #expect(pong.contains(#""id":"ping""#), "\(pong)")
    }

    @Test func router_whenStoppedWithAnAskInFlight_answersItThenExits0() throws {
        let (router, socket) = try routerWithSilentBackends()
        try askAndWaitUntilTaken(socket, id: "in-flight")
        kill(router.pid, SIGTERM)
        let reply = String(decoding: try socket.receive().last ?? Data(), as: UTF8.self)
        #expect(reply.contains(#""id":"in-flight""#) && reply.contains(#""ok":true"#), "\(reply)")
        #expect(try router.waitForExit(timeout: .seconds(5)) == 0)
        #expect(router.log.contains("stopping: answering the requests in flight"), "\(router.log)")
    }

    @Test func router_whenSignalledTwice_stopsAtOnce() throws {
        let (router, socket) = try routerWithSilentBackends()
        try askAndWaitUntilTaken(socket, id: "dropped")
        kill(router.pid, SIGTERM)
        try router.waitForLog { $0.contains("stopping: answering the requests in flight") }
        kill(router.pid, SIGTERM)
        #expect(try router.waitForExit(timeout: .seconds(5)) == 0)
        #expect(!router.log.contains("requests in flight answered"), "\(router.log)")
        // The ask it drops is counted, not lost without a word.
        #expect(router.log.contains("stopping at once: requests in flight unanswered left=1"), "\(router.log)")
    }
}
