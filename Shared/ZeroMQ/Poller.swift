import CZeroMQ
import Glibc

/// Waits on several sockets at once (`zmq_poll`), the heart of a single-threaded reactor.
///
/// Register sockets (and plain file descriptors: a timer, a pipe) once; `poll(timeout:)` returns
/// the indices (registration order) of those that have something to read.
public final class Poller {
    /// Up to 64 sockets: `ReadySockets` is a bit set, so a poll allocates nothing.
    public static let maxSockets = 64

    private var sockets: [Socket?] = []
    private var items: [zmq_pollitem_t] = []

    public init() {}

    /// Adds a socket to watch for input; returns its index.
    @discardableResult
    public func add(_ socket: Socket) -> Int {
        precondition(sockets.count < Self.maxSockets, "a Poller watches at most \(Self.maxSockets) sockets")
        sockets.append(socket)
        items.append(zmq_pollitem_t(socket: socket.rawHandle, fd: -1, events: Int16(ZMQ_POLLIN), revents: 0))
        return sockets.count - 1
    }

    /// Adds a plain file descriptor to watch for input (`POLLIN`); returns its index.
    @discardableResult
    public func add(fileDescriptor: Int32) -> Int {
        precondition(sockets.count < Self.maxSockets, "a Poller watches at most \(Self.maxSockets) sockets")
        sockets.append(nil)
        items.append(zmq_pollitem_t(socket: nil, fd: fileDescriptor, events: Int16(ZMQ_POLLIN), revents: 0))
        return sockets.count - 1
    }

    /// Stops watching the socket at `index` for input (it keeps its index; poll never reports it).
    public func pause(at index: Int) {
        items[index].events = 0
    }

    /// Replaces the socket at `index` (after a Lazy Pirate reconnect, say).
    public func replace(at index: Int, with socket: Socket) {
        sockets[index] = socket
        items[index].socket = socket.rawHandle
    }

    /// Blocks until a socket is readable or the timeout passes (nil: forever).
    /// Returns the indices of readable sockets; empty on timeout. Retries EINTR.
    public func poll(timeout: Duration?) throws(ZMQError) -> ReadySockets {
        let milliseconds = Int(Socket.milliseconds(timeout))
        let count = items.count
        _ = try items.withUnsafeMutableBufferPointer { buffer throws(ZMQError) in
            try zmqCall("zmq_poll") { zmq_poll(buffer.baseAddress, Int32(count), milliseconds) }
        }
        var ready = ReadySockets()
        for index in items.indices where items[index].revents & Int16(ZMQ_POLLIN) != 0 {
            ready.insert(index)
        }
        return ready
    }
}

/// The indices of the sockets a poll found readable, in ascending order: a bit set.
public struct ReadySockets: Sequence, Equatable, ExpressibleByArrayLiteral, Sendable {
    private var bits: UInt64 = 0

    public init() {}

    public init(arrayLiteral indices: Int...) {
        for index in indices { insert(index) }
    }

    mutating func insert(_ index: Int) {
        precondition(index >= 0 && index < Poller.maxSockets, "socket index \(index) out of range")
        bits |= 1 << UInt64(index)
    }

    public var isEmpty: Bool { bits == 0 }

    public func contains(_ index: Int) -> Bool {
        index >= 0 && index < Poller.maxSockets && bits & (1 << UInt64(index)) != 0
    }

    public func makeIterator() -> Iterator { Iterator(bits: bits) }

    public struct Iterator: IteratorProtocol {
        var bits: UInt64

        public mutating func next() -> Int? {
            guard bits != 0 else { return nil }
            let index = bits.trailingZeroBitCount
            bits &= bits - 1
            return index
        }
    }
}
