import CZeroMQ

/// A libzmq context: the owner of I/O threads and the parent of every socket.
///
/// The only `@unchecked Sendable` type of the project: libzmq contexts are thread-safe (zguide,
/// chapter 2), so one context is shared by all threads of a process, while each socket stays on
/// the thread that made it. `shutdown()` may be called from any thread (a signal handler's queue,
/// a test's teardown): every blocking call on every socket then fails with ETERM.
public final class Context: @unchecked Sendable {
    let handle: UnsafeMutableRawPointer

    /// Creates a context whose sockets default to linger 0 (`ZMQ_BLOCKY = 0`), so a process never
    /// hangs at exit on undeliverable messages.
    public init(ioThreads: Int32 = 1) {
        guard let handle = zmq_ctx_new() else { fatalError("zmq_ctx_new failed: out of memory") }
        self.handle = handle
        zmq_ctx_set(handle, ZMQ_BLOCKY, 0)
        zmq_ctx_set(handle, ZMQ_IO_THREADS, ioThreads)
    }

    /// Wakes every blocked call on this context's sockets with ETERM. Safe from any thread.
    public func shutdown() {
        zmq_ctx_shutdown(handle)
    }

    deinit {
        // Sockets retain their context, so by now every socket is closed and this cannot hang.
        while zmq_ctx_term(handle) == -1 && zmq_errno() == EINTR {}
    }
}
