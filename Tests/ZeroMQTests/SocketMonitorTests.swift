import Foundation
import Testing
import ZeroMQ

/// A monitor's reader closing before the watched socket's last connection drops: libzmq's I/O
/// thread sent the DISCONNECTED event with a blocking send that never returned (libzmq #3575), and
/// every socket of that context stopped. It hung a test's context under load (an ingest unanswered
/// for 30 s after price-ingest was killed), and could hang a service's.
struct SocketMonitorTests {
    /// Waits (polling, with a deadline) until `client` has no connection to send to: its peer's
    /// departure has been handled by the I/O thread. False when that never happens.
    private func peerGone(_ client: Socket, within limit: Duration = .seconds(5)) -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            do {
                try client.send([Data(), Data("probe".utf8)], dontWait: true)
            } catch {
                return true  // EAGAIN: no completed connection left (`immediate`)
            }
            Thread.sleep(forTimeInterval: 0.01)  // polling a condition with a deadline
        }
        return false
    }

    @Test func aMonitorDroppedBeforeItsSocketsPeerLeaves_leavesTheContextWorking() throws {
        let serverContext = Context()
        let clientContext = Context()
        let first = try Socket(serverContext, .router)
        let firstEndpoint = try first.bind("tcp://127.0.0.1:*")
        first.receiveTimeout = .seconds(5)
        let client = try Socket(clientContext, .dealer)
        client.immediate = true
        var monitor: SocketMonitor? = try SocketMonitor(watching: client)
        try client.connect(firstEndpoint)
        try client.send([Data(), Data("hello".utf8)])
        _ = try first.receive()  // connected
        monitor = nil            // its reader goes while the connection is up
        #expect(monitor == nil)
        first.close()            // the peer leaves: a DISCONNECTED event for a monitor nobody reads
        #expect(peerGone(client), "the client's context never handled its peer leaving")

        let second = try Socket(serverContext, .router)
        let secondEndpoint = try second.bind("tcp://127.0.0.1:*")
        second.receiveTimeout = .seconds(5)
        let fresh = try Socket(clientContext, .dealer)
        try fresh.connect(secondEndpoint)
        try fresh.send([Data(), Data("again".utf8)])
        #expect((try? second.receive())?.last == Data("again".utf8), "the client's context no longer connects")
        client.close()
        fresh.close()
    }

    /// Events wait without a limit for their reader: a full queue would block libzmq's I/O thread
    /// in its send of the next one, as a closed reader did (one DISCONNECTED event each time a
    /// connection drops; a replica's client may drain them only days later).
    @Test func theEventsQueue_hasNoLimit() throws {
        let context = Context()
        let socket = try Socket(context, .dealer)
        let monitor = try SocketMonitor(watching: socket)
        #expect(monitor.events.receiveHighWaterMark == 0)
        socket.close()
    }
}
