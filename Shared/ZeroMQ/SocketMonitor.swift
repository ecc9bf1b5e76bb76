import CZeroMQ
import Foundation
import Synchronization

/// Tells when a socket's connections drop (`zmq_socket_monitor`): a client waiting for a reply
/// learns at once that the connection carrying its request closed (the service stopped, crashed
/// or refused an oversized frame), instead of waiting out its whole timeout.
///
/// Owned by the thread that owns the watched socket, like the socket itself. The monitor is
/// stopped before its reader closes, whichever of the two goes first: libzmq's I/O thread sends
/// events with a blocking send that never returns once the reader is gone, and every socket of
/// the context then stops (libzmq #3575; it hung a test process's context, and could hang
/// fuel-lookup's when price-ingest went away just as a client reconnected).
public final class SocketMonitor {
    /// The socket events arrive on; poll it beside the watched one.
    public let events: Socket
    /// The watched socket, whose monitor is stopped before `events` closes.
    private let watched: Socket

    private static let counter = Atomic<UInt64>(0)

    /// Starts watching `socket` for dropped connections.
    public init(watching socket: Socket) throws(ZMQError) {
        let number = Self.counter.wrappingAdd(1, ordering: .relaxed).newValue
        let address = "inproc://fuelboard-monitor-\(getpid())-\(number)"
        _ = try zmqCall("zmq_socket_monitor") {
            zmq_socket_monitor(socket.rawHandle, address, ZMQ_EVENT_DISCONNECTED)
        }
        watched = socket
        events = try Socket(socket.context, .pair)
        // No limit on the events queued: a reader that only drains them when it next calls (a
        // replica's client idle for days while a NAT drops its connection again and again) would
        // otherwise fill the queue, and libzmq's blocking send of the next event stop the context.
        events.receiveHighWaterMark = 0
        try events.connect(address)
    }

    deinit {
        watched.stopMonitor()
        events.close()
    }

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
