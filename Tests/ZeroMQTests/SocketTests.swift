import Foundation
import Testing
import ZeroMQ

struct SocketTests {
    private func pair(_ context: Context) throws -> (server: Socket, client: Socket) {
        let server = try Socket(context, .rep)
        let endpoint = try server.bind("tcp://127.0.0.1:*")
        let client = try Socket(context, .req)
        try client.connect(endpoint)
        server.receiveTimeout = .seconds(2)
        client.receiveTimeout = .seconds(2)
        return (server, client)
    }

    @Test func bind_whenWildcardPort_returnsConcretePort() throws {
        let context = Context()
        let socket = try Socket(context, .router)
        let endpoint = try socket.bind("tcp://127.0.0.1:*")
        #expect(endpoint.hasPrefix("tcp://127.0.0.1:"))
        #expect(Int(endpoint.split(separator: ":").last ?? "") ?? 0 > 0)
    }

    @Test func roundTrip_whenRequestSent_replyArrivesWhole() throws {
        let context = Context()
        let (server, client) = try pair(context)
        try client.send(Data("ping".utf8))
        #expect(try server.receive() == [Data("ping".utf8)])
        try server.send(Data("pong".utf8))
        #expect(try client.receive() == [Data("pong".utf8)])
    }

    @Test func receive_whenMessageLargerThanAnyBuffer_keepsEveryByte() throws {
        let context = Context()
        let (server, client) = try pair(context)
        let big = Data((0..<3_000_000).map { UInt8($0 % 251) })
        try client.send(big)
        let frames = try server.receive()
        #expect(frames.count == 1)
        #expect(frames[0] == big)
    }

    @Test func receive_whenMultipart_returnsEveryFrameInOrder() throws {
        let context = Context()
        let push = try Socket(context, .push)
        let endpoint = try push.bind("tcp://127.0.0.1:*")
        let pull = try Socket(context, .pull)
        pull.receiveTimeout = .seconds(2)
        try pull.connect(endpoint)
        let frames = [Data("a".utf8), Data(), Data(repeating: 7, count: 1000)]
        try push.send(frames)
        #expect(try pull.receive() == frames)
    }

    @Test func receive_whenTimeoutExpires_throwsTimeout() throws {
        let context = Context()
        let (server, _) = try pair(context)
        server.receiveTimeout = .milliseconds(50)
        #expect(throws: ZMQError.self) { try server.receive() }
        do {
            _ = try server.receive()
            Issue.record("receive returned without a message")
        } catch {
            #expect(error.isTimeout)
            #expect(!error.isTerminated)
        }
    }

    @Test func receive_whenContextShutDown_throwsTerminated() throws {
        let context = Context()
        let socket = try Socket(context, .pull)
        socket.receiveTimeout = .seconds(5)
        _ = try socket.bind("tcp://127.0.0.1:*")
        let started = ContinuousClock.now
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(50)) { @Sendable in context.shutdown() }
        do {
            _ = try socket.receive()
            Issue.record("receive returned without a message")
        } catch {
            #expect(error.isTerminated)
        }
        #expect(ContinuousClock.now - started < .seconds(4))
    }

    @Test func bind_whenEndpointInvalid_keepsErrno() throws {
        let context = Context()
        let socket = try Socket(context, .router)
        do {
            _ = try socket.bind("tcp://not a host:1")
            Issue.record("bind succeeded")
        } catch {
            #expect(error.code != 0)
            #expect(error.description.contains("zmq_bind"))
        }
    }

    @Test func options_whenSet_readBackTyped() throws {
        let context = Context()
        let socket = try Socket(context, .dealer)
        socket.receiveTimeout = .milliseconds(250)
        socket.sendHighWaterMark = 5000
        socket.maxMessageSize = 1 << 20
        socket.linger = .zero
        #expect(socket.receiveTimeout == .milliseconds(250))
        #expect(socket.sendHighWaterMark == 5000)
        #expect(socket.maxMessageSize == 1 << 20)
        #expect(socket.linger == .zero)
        socket.receiveTimeout = nil
        #expect(socket.receiveTimeout == nil)
    }

    @Test func poller_whenOneSocketReadable_reportsOnlyIt() throws {
        let context = Context()
        let a = try Socket(context, .pull), b = try Socket(context, .pull)
        let endpointA = try a.bind("tcp://127.0.0.1:*")
        _ = try b.bind("tcp://127.0.0.1:*")
        let push = try Socket(context, .push)
        try push.connect(endpointA)
        try push.send(Data("x".utf8))
        let poller = Poller()
        poller.add(a)
        poller.add(b)
        #expect(try poller.poll(timeout: .seconds(2)) == [0])
        _ = try a.receive()
        #expect(try poller.poll(timeout: .milliseconds(20)) == [])
    }
}

@Suite struct ReadySocketsTests {
    @Test func listsItsIndicesInAscendingOrder() {
        let ready: ReadySockets = [63, 0, 5]
        #expect(Array(ready) == [0, 5, 63])
        #expect(ready.contains(5) && ready.contains(63) && !ready.contains(1) && !ready.contains(64))
        #expect(!ready.isEmpty && ReadySockets().isEmpty && Array(ReadySockets()).isEmpty)
    }
}
