import CZeroMQ
import Foundation
import Synchronization

/// Tells when a socket's connections drop (`zmq_socket_monitor`): a client waiting for a reply
/// learns at once that the connection carrying its request closed (the service stopped, crashed
/// or refused an oversized frame), instead of waiting out its whole timeout.
///
/// Owned by the thread that owns the watched socket, like the socket itself. Close the watched
/// socket before the monitor (libzmq then ends the monitor's stream by itself).
public final class SocketMonitor {
    /// The socket events arrive on; poll it beside the watched one.
    public let events: Socket

    private static let counter = Atomic<UInt64>(0)

    /// Starts watching `socket` for dropped connections.
    public init(watching socket: Socket) throws(ZMQError) {
        let number = Self.counter.wrappingAdd(1, ordering: .relaxed).newValue
        let address = "inproc://fuelboard-monitor-\(getpid())-\(number)"
        _ = try zmqCall("zmq_socket_monitor") {
            zmq_socket_monitor(socket.rawHandle, address, ZMQ_EVENT_DISCONNECTED)
        }
        events = try Socket(socket.context, .pair)
        try events.connect(address)
    }

    deinit { events.close() }

    /// Reads every event waiting; true when one of them was a dropped connection.
    public func takeDisconnects() -> Bool {
        var dropped = false
        while let frames = try? events.receive(dontWait: true) {
            // The first frame: the event number (16 bits, this machine's byte order), then a value.
            guard let head = frames.first, head.count >= 2 else { continue }
            let event = head.withUnsafeBytes { $0.loadUnaligned(as: UInt16.self) }
            if Int32(event) == ZMQ_EVENT_DISCONNECTED { dropped = true }
        }
        return dropped
    }
}
