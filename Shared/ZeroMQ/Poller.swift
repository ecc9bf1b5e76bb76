import CZeroMQ
import Glibc

/// Waits on several sockets at once (`zmq_poll`), the heart of a single-threaded reactor.
///
/// Register sockets once; `poll(timeout:)` returns the indices (registration order) of the
/// sockets that have a message to read.
public final class Poller {
    private var sockets: [Socket] = []
    private var items: [zmq_pollitem_t] = []

    public init() {}

    /// Adds a socket to watch for input; returns its index.
    @discardableResult
    public func add(_ socket: Socket) -> Int {
        sockets.append(socket)
        items.append(zmq_pollitem_t(socket: socket.rawHandle, fd: -1, events: Int16(ZMQ_POLLIN), revents: 0))
        return sockets.count - 1
    }

    /// Replaces the socket at `index` (after a Lazy Pirate reconnect, say).
    public func replace(at index: Int, with socket: Socket) {
        sockets[index] = socket
        items[index].socket = socket.rawHandle
    }

    /// Blocks until a socket is readable or the timeout passes (nil: forever).
    /// Returns the indices of readable sockets; empty on timeout. Retries EINTR.
    public func poll(timeout: Duration?) throws(ZMQError) -> [Int] {
        let milliseconds = Int(Socket.milliseconds(timeout))
        let count = items.count
        _ = try items.withUnsafeMutableBufferPointer { buffer throws(ZMQError) in
            try zmqCall("zmq_poll") { zmq_poll(buffer.baseAddress, Int32(count), milliseconds) }
        }
        var ready: [Int] = []
        for index in items.indices where items[index].revents & Int16(ZMQ_POLLIN) != 0 {
            ready.append(index)
        }
        return ready
    }
}
