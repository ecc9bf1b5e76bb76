import Foundation
import Testing
import ZeroMQ
#if canImport(Glibc)
import Glibc
#endif

/// Serialized: each test looks for the I/O thread its context starts among the process's threads.
@Suite(.serialized) struct ContextTests {
    /// The ZeroMQ I/O threads of this process, by thread id, with their scheduling policy.
    private func ioThreads() -> [Int32: Int32] {
        var threads: [Int32: Int32] = [:]
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        for name in names {
            guard let id = Int32(name),
                  let comm = try? String(contentsOfFile: "/proc/self/task/\(name)/comm", encoding: .utf8),
                  comm.hasPrefix("ZMQbg/IO/") else { continue }
            threads[id] = sched_getscheduler(id)
        }
        return threads
    }

    /// The I/O threads started after `before`, once one of them has `policy` (or 5 s have
    /// passed): tests of other suites start theirs too.
    private func newIOThreads(since before: [Int32: Int32], until policy: Int32) -> [Int32: Int32] {
        let deadline = ContinuousClock.now + .seconds(5)
        var started: [Int32: Int32] = [:]
        repeat {
            // A thread is named after libzmq has set its policy, so a named one shows its policy.
            started = ioThreads().filter { before[$0.key] == nil }
            if started.values.contains(policy) { break }
            sched_yield()
        } while ContinuousClock.now < deadline
        return started
    }

    private static let schedBatch: Int32 = 3

    @Test func yieldingIOThreads_runUnderTheBatchPolicy() throws {
        #if os(Linux)
        let before = ioThreads()
        let context = Context(yieldingIOThreads: true)
        #expect(context.ioThreadsYield, "an unprivileged Linux process may choose SCHED_BATCH")
        let socket = try Socket(context, .router)  // the first socket starts the I/O thread
        _ = try socket.bind("tcp://127.0.0.1:*")
        let started = newIOThreads(since: before, until: Self.schedBatch)
        #expect(started.values.contains(Self.schedBatch), "no new ZeroMQ I/O thread under SCHED_BATCH: \(started)")
        // The probe put the calling thread's own policy back.
        #expect(sched_getscheduler(0) == SCHED_OTHER)
        #endif
    }

    @Test func defaultContext_leavesItsIOThreadsAlone() throws {
        #if os(Linux)
        let before = ioThreads()
        let context = Context()
        #expect(!context.ioThreadsYield)
        let socket = try Socket(context, .router)
        _ = try socket.bind("tcp://127.0.0.1:*")
        // Only yielding contexts (none outside this serialized suite) start batch threads.
        let started = newIOThreads(since: before, until: SCHED_OTHER)
        #expect(started.values.contains(SCHED_OTHER), "no new ZeroMQ I/O thread appeared: \(started)")
        #expect(!started.values.contains(Self.schedBatch), "\(started)")
        #endif
    }
}
