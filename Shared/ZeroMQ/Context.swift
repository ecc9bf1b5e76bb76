import CZeroMQ
#if canImport(Glibc)
import Glibc
#endif

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
    ///
    /// `yieldingIOThreads` runs the I/O threads under Linux's `SCHED_BATCH` policy (same share of
    /// the CPU, same priority), where a thread that wakes never preempts the one running. A
    /// service's thread sending a reply wakes the I/O thread; on a shared core it would otherwise
    /// often be preempted at once, and finish its turn (and reach its next receive) only after
    /// the I/O thread and the client have run. Applied only where this process may set the policy
    /// (libzmq stops the process if setting it fails); elsewhere the threads keep the default.
    /// The check runs on the calling thread, and the I/O threads start with the first socket,
    /// keeping that thread's priority: make it on this thread (or another of the default policy).
    ///
    /// `maxSockets` raises libzmq's limit of sockets on the context (1,023 by default: a 1,024th
    /// fails with "Too many open files" whatever `ulimit -n` allows).
    public init(ioThreads: Int32 = 1, yieldingIOThreads: Bool = false, maxSockets: Int32? = nil) {
        guard let handle = zmq_ctx_new() else { fatalError("zmq_ctx_new failed: out of memory") }
        self.handle = handle
        zmq_ctx_set(handle, ZMQ_BLOCKY, 0)
        zmq_ctx_set(handle, ZMQ_IO_THREADS, ioThreads)
        if let maxSockets { zmq_ctx_set(handle, ZMQ_MAX_SOCKETS, maxSockets) }
        ioThreadsYield = yieldingIOThreads && Self.batchSchedulingAllowed
            && zmq_ctx_set(handle, ZMQ_THREAD_SCHED_POLICY, Self.schedBatch) == 0
    }

    /// Whether `yieldingIOThreads` took effect.
    public let ioThreadsYield: Bool

    /// Linux's `SCHED_BATCH` (a GNU extension the C module does not export).
    static let schedBatch: Int32 = 3

    /// Tries the policy on the calling thread and puts the old one back: the same call libzmq's
    /// I/O thread makes, so a refusal (a seccomp filter, another kernel) is seen here first.
    static let batchSchedulingAllowed: Bool = {
        #if os(Linux)
        let previous = sched_getscheduler(0)
        guard previous == SCHED_OTHER else { return false }
        var parameters = sched_param(sched_priority: 0)
        guard sched_setscheduler(0, schedBatch, &parameters) == 0 else { return false }
        return sched_setscheduler(0, previous, &parameters) == 0
        #else
        return false
        #endif
    }()

    /// Wakes every blocked call on this context's sockets with ETERM. Safe from any thread.
    public func shutdown() {
        zmq_ctx_shutdown(handle)
    }

    deinit {
        // Sockets retain their context, so by now every socket is closed and this cannot hang.
        while zmq_ctx_term(handle) == -1 && zmq_errno() == EINTR {}
    }
}
