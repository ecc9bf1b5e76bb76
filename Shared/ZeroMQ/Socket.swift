import CZeroMQ
import Foundation

/// One libzmq socket, owned by the thread that created it.
///
/// Not `Sendable` on purpose: the compiler then refuses to move a socket to another thread, which
/// is zguide's rule. The socket retains its `Context`, so the context is terminated only after
/// every socket is closed. Calls block by default; timeouts come from the typed options.
public final class Socket {
    public let context: Context
    public let type: SocketType
    private var handle: UnsafeMutableRawPointer?

    /// Opens a socket. Linger defaults to 0 (set on the context).
    public init(_ context: Context, _ type: SocketType) throws(ZMQError) {
        guard let handle = zmq_socket(context.handle, type.rawValue) else {
            throw ZMQError(code: zmq_errno(), operation: "zmq_socket")
        }
        self.context = context
        self.type = type
        self.handle = handle
    }

    deinit { close() }

    /// Closes the socket; later calls fail with ENOTSOCK-like errors. Idempotent.
    public func close() {
        if let handle {
            // A monitor still running would send this socket's last events (a connection that
            // drops while libzmq finishes closing it) from the I/O thread with a blocking send,
            // which never returns once the monitor's reader is gone: the context's I/O thread
            // stops for good (libzmq #3575). Stopped here, on the owning thread.
            stopMonitor()
            zmq_close(handle)
            self.handle = nil
        }
    }

    /// Stops a monitor started on this socket (`zmq_socket_monitor`); nothing when none runs or
    /// the socket is closed.
    func stopMonitor() {
        if let handle { zmq_socket_monitor(handle, nil, 0) }
    }

    var rawHandle: UnsafeMutableRawPointer {
        guard let handle else { preconditionFailure("socket used after close()") }
        return handle
    }

    /// Binds and returns the resolved endpoint (`tcp://127.0.0.1:*` becomes the real port).
    @discardableResult
    public func bind(_ endpoint: String) throws(ZMQError) -> String {
        _ = try zmqCall("zmq_bind(\(endpoint))") { zmq_bind(rawHandle, endpoint) }
        return lastEndpoint ?? endpoint
    }

    public func connect(_ endpoint: String) throws(ZMQError) {
        _ = try zmqCall("zmq_connect(\(endpoint))") { zmq_connect(rawHandle, endpoint) }
    }

    public func disconnect(_ endpoint: String) throws(ZMQError) {
        _ = try zmqCall("zmq_disconnect(\(endpoint))") { zmq_disconnect(rawHandle, endpoint) }
    }

    /// Sends one multipart message: `ZMQ_SNDMORE` on every frame but the last.
    public func send(_ frames: [Data], dontWait: Bool = false) throws(ZMQError) {
        precondition(!frames.isEmpty, "a message has at least one frame")
        for (index, frame) in frames.enumerated() {
            var flags: Int32 = index < frames.count - 1 ? ZMQ_SNDMORE : 0
            if dontWait { flags |= ZMQ_DONTWAIT }
            try sendFrame(frame, flags: flags)
        }
    }

    /// Sends a single-frame message.
    public func send(_ frame: Data, dontWait: Bool = false) throws(ZMQError) {
        try sendFrame(frame, flags: dontWait ? ZMQ_DONTWAIT : 0)
    }

    /// Sends `head` frames then `last` as one multipart message, without joining them first
    /// (a reply after its routing envelope).
    public func send(_ head: [Data], then last: [UInt8], dontWait: Bool = false) throws(ZMQError) {
        let wait = dontWait ? ZMQ_DONTWAIT : 0
        for frame in head { try sendFrame(frame, flags: ZMQ_SNDMORE | wait) }
        let handle = rawHandle
        _ = try zmqCall("zmq_send") {
            last.withUnsafeBytes { buffer in zmq_send(handle, buffer.baseAddress, buffer.count, wait) }
        }
    }

    /// `send(_:then:dontWait:)`, with `last` counted in `held` until libzmq has written it to the
    /// connection or dropped it (see `HeldBytes`). It costs what a plain send does (one copy) and
    /// one allocation more: for large messages.
    public func send(_ head: [Data], then last: [UInt8], dontWait: Bool = false, heldIn held: HeldBytes)
        throws(ZMQError)
    {
        let wait = dontWait ? ZMQ_DONTWAIT : 0
        for frame in head { try sendFrame(frame, flags: ZMQ_SNDMORE | wait) }
        let handle = rawHandle
        var message = zmq_msg_t()
        held.initialise(&message, copying: last)
        do {
            _ = try zmqCall("zmq_msg_send") { zmq_msg_send(&message, handle, wait) }
        } catch {
            zmq_msg_close(&message)  // not taken: freed (and uncounted) here
            throw error
        }
    }

    private func sendFrame(_ frame: Data, flags: Int32) throws(ZMQError) {
        let handle = rawHandle
        _ = try zmqCall("zmq_send") {
            frame.withUnsafeBytes { buffer in
                zmq_send(handle, buffer.baseAddress, buffer.count, flags)
            }
        }
    }

    /// Receives one whole multipart message (no fixed buffers: every frame at its full size).
    public func receive(dontWait: Bool = false) throws(ZMQError) -> [Data] {
        var frames: [Data] = []
        try receive(into: &frames, dontWait: dontWait)
        return frames
    }

    /// `receive`, into `frames` (emptied first, its storage kept): a serving loop reuses one
    /// array instead of allocating one per message.
    public func receive(into frames: inout [Data], dontWait: Bool = false) throws(ZMQError) {
        frames.removeAll(keepingCapacity: true)
        var message = zmq_msg_t()
        let handle = rawHandle
        var more = true
        while more {
            zmq_msg_init(&message)
            defer { zmq_msg_close(&message) }
            let flags = dontWait && frames.isEmpty ? ZMQ_DONTWAIT : 0
            _ = try zmqCall("zmq_msg_recv") { zmq_msg_recv(&message, handle, flags) }
            let size = zmq_msg_size(&message)
            frames.append(size == 0 ? Data() : Data(bytes: zmq_msg_data(&message), count: size))
            more = zmq_msg_more(&message) != 0
        }
    }

    /// Receives one whole multipart message without copying its payload: `body` gets the
    /// number of frames and the last frame's bytes, valid only during the call (a load
    /// generator reads thousands of replies a second and keeps none of them).
    public func receiveLastFrame<Result>(
        dontWait: Bool = false, _ body: (_ frameCount: Int, _ last: UnsafeRawBufferPointer) -> Result
    ) throws(ZMQError) -> Result {
        var message = zmq_msg_t()
        let handle = rawHandle
        var frameCount = 0
        while true {
            zmq_msg_init(&message)
            defer { zmq_msg_close(&message) }
            let flags = dontWait && frameCount == 0 ? ZMQ_DONTWAIT : 0
            _ = try zmqCall("zmq_msg_recv") { zmq_msg_recv(&message, handle, flags) }
            frameCount += 1
            if zmq_msg_more(&message) == 0 {
                return body(frameCount, UnsafeRawBufferPointer(start: zmq_msg_data(&message), count: zmq_msg_size(&message)))
            }
        }
    }

    /// Subscribes a SUB socket to messages whose first frame starts with `prefix` ("" for all).
    public func subscribe(_ prefix: String = "") throws(ZMQError) {
        try setBytes(ZMQ_SUBSCRIBE, Array(prefix.utf8))
    }
}
