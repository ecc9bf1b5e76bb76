import CZeroMQ
import Glibc
import Synchronization

/// The bytes of messages that libzmq holds: sent with `Socket.send(_:then:dontWait:heldIn:)` and
/// not yet written to their connection (nor dropped with it).
///
/// libzmq bounds what it queues for a peer in messages (`ZMQ_SNDHWM`), not in bytes: a client that
/// asks for large replies and never reads them made a service hold gigabytes within seconds (QA:
/// fuel-lookup at 6 GB after 20 s). This count is exact: such a message is copied into a buffer
/// libzmq frees through a callback, which takes the bytes off again, from whichever thread frees it.
public final class HeldBytes: Sendable {
    private let held = Atomic<Int>(0)
    /// A count that every change of this one changes too (the total over every client).
    public let total: HeldBytes?

    public init(total: HeldBytes? = nil) {
        self.total = total
    }

    /// The bytes held now.
    public var bytes: Int { held.load(ordering: .relaxed) }

    fileprivate func add(_ count: Int) {
        held.wrappingAdd(count, ordering: .relaxed)
        total?.add(count)
    }

    fileprivate func remove(_ count: Int) {
        held.wrappingSubtract(count, ordering: .relaxed)
        total?.remove(count)
    }

    /// Makes `message` a copy of `bytes`, counted here until libzmq frees it. The buffer starts
    /// with its size, which the free callback reads (libzmq gives it the data and the hint only).
    func initialise(_ message: inout zmq_msg_t, copying bytes: [UInt8]) {
        let header = MemoryLayout<Int>.stride
        guard let base = malloc(header + bytes.count) else { fatalError("out of memory for a \(bytes.count)-byte message") }
        base.storeBytes(of: bytes.count, as: Int.self)
        let data = base + header
        bytes.withUnsafeBytes { source in
            if let from = source.baseAddress { data.copyMemory(from: from, byteCount: source.count) }
        }
        add(bytes.count)
        zmq_msg_init_data(&message, data, bytes.count, releaseHeldMessage, Unmanaged.passRetained(self).toOpaque())
    }
}

/// libzmq's free callback for a message made by `HeldBytes.initialise`: on the I/O thread once the
/// message is written or dropped, or on the sender's when a failed send's message is closed.
private func releaseHeldMessage(_ data: UnsafeMutableRawPointer?, _ hint: UnsafeMutableRawPointer?) {
    guard let data, let hint else { return }
    let base = data - MemoryLayout<Int>.stride
    let count = base.load(as: Int.self)
    Unmanaged<HeldBytes>.fromOpaque(hint).takeRetainedValue().remove(count)
    free(base)
}
