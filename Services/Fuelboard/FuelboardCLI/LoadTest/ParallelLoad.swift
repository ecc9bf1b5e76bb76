import Foundation
import ServiceKit
import Synchronization
import ZeroMQ

/// A load test on several generator threads at once (`--threads`): each a `LoadRunner` with its
/// share of the requests in flight (or of the rate), of the connections and of the request count,
/// and what they measured merged into one result, second by second.
struct ParallelLoad {
    let settings: LoadRunner.Settings
    let plan: LoadPlan
    let context: Context

    /// The most generator threads, and connections one thread polls (its poll also watches the
    /// open loop's timer).
    static let maxThreads = 64
    static let maxConnectionsPerThread = Poller.maxSockets - 1

    /// Each thread's settings: shares as even as whole numbers allow, the first threads taking the
    /// remainders; open-loop schedules interleaved; and request numbers far apart that start each
    /// thread its own part of a plan of `planSize` requests (the plan's request is the number
    /// modulo its size): thread 2 of 2 starts halfway through it. They were 1,000,000,007 apart,
    /// which started thread 2 seven requests after thread 1 in a plan of 20,000, and the threads
    /// sent the same requests at nearly the same moment (QA).
    static func shares(of settings: LoadRunner.Settings, planSize: Int) -> [LoadRunner.Settings] {
        let threads = max(1, settings.threads)
        func share(_ total: Int, _ index: Int) -> Int { total / threads + (index < total % threads ? 1 : 0) }
        let size = max(1, planSize)
        // Whole plans apart (ids never meet: each thread may send 10^9 requests), plus its part.
        let spacing = size * (1_000_000_000 / size + 1)
        return (0..<threads).map { index in
            var part = settings
            part.threads = 1
            part.concurrency = max(1, share(settings.concurrency, index))
            part.connections = max(1, share(settings.connections, index))
            part.maxRequests = settings.maxRequests.map { max(1, share($0, index)) }
            part.firstSequence = settings.firstSequence + index * spacing + index * size / threads
            if index > 0 { part.warmupProgress = nil }
            if let rate = settings.rate {
                part.rate = rate / Double(threads)
                part.openLoopOffset = .nanoseconds(Int64(1e9 / rate * Double(index)))
            }
            return part
        }
    }

    /// Runs every share on a thread of its own (one share runs on the calling thread) and merges
    /// the results; `progress` gets each second once every thread has measured it. A thread that
    /// fails stops the others (the run is then lost: its error is thrown).
    func run(progress: @escaping @Sendable (LoadRunner.Second) -> Void) throws -> LoadRunner.Result {
        let parts = Self.shares(of: settings, planSize: plan.bodies.count)
        let merger = SecondMerger(threads: parts.count, progress: progress)
        var results: [LoadRunner.Result] = []
        if parts.count == 1 {
            results = [try LoadRunner(settings: parts[0], plan: plan, context: context).run(progress: merger.add)]
        } else {
            let runners = parts.map { LoadRunner(settings: $0, plan: plan, context: context) }
            let outcomes = OnThreads.map(runners.count, name: "loadtest") { index in
                let outcome = Result { try runners[index].run(progress: merger.add) }
                if case .failure = outcome { LoadRunner.stopRequested.store(true, ordering: .relaxed) }
                return outcome
            }
            results = try outcomes.map { try $0.get() }
        }
        var result = Self.merge(results)
        // Seconds only some threads reached (they stopped at different times) are reported too,
        // and a second waited (or was a stall) only when every thread went unanswered through it
        // and one of them found it so.
        result.seconds = merger.finish().map { merged in
            var second = merged
            func anyThread(_ flag: KeyPath<LoadRunner.Second, Bool?>) -> Bool? {
                merged.requests == 0 && results.contains { part in
                    part.seconds.contains { $0.second == merged.second && $0[keyPath: flag] == true }
                } ? true : nil
            }
            second.waited = anyThread(\.waited)
            second.stalled = anyThread(\.stalled)
            return second
        }
        result.stalledSeconds = result.seconds.filter { $0.stalled == true }.count
        return result
    }

    /// One result of several runs at once: counts added, latencies merged; the elapsed time is
    /// the longest, and the CPU time (each runner reads the whole process's) the largest. The
    /// seconds (and the stalls among them) are merged by `run`.
    static func merge(_ results: [LoadRunner.Result]) -> LoadRunner.Result {
        var merged = LoadRunner.Result()
        for result in results {
            merged.histogram.merge(result.histogram)
            merged.sendLag.merge(result.sendLag)
            merged.sequencesSent += result.sequencesSent
            merged.errorsByCode.merge(result.errorsByCode, uniquingKeysWith: +)
            merged.firstErrorMessages.merge(result.firstErrorMessages) { first, _ in first }
            merged.invalidReplies += result.invalidReplies
            merged.timeouts += result.timeouts
            merged.unanswered += result.unanswered
            merged.completed += result.completed
            if let fastest = result.fastestReply { merged.fastestReply = min(merged.fastestReply ?? fastest, fastest) }
            merged.warmupCompleted += result.warmupCompleted
            merged.lateReplies += result.lateReplies
            merged.duplicateReplies += result.duplicateReplies
            merged.outcomes.merge(result.outcomes, uniquingKeysWith: +)
            merged.interrupted = merged.interrupted || result.interrupted
            merged.sent += result.sent
            merged.unsent += result.unsent
            merged.unansweredInLatency += result.unansweredInLatency
            merged.timeoutsInLatency += result.timeoutsInLatency
            merged.timeoutsOnDisconnect += result.timeoutsOnDisconnect
            merged.contentChecked += result.contentChecked
            merged.okReplies += result.okReplies
            merged.invalidByReason.merge(result.invalidByReason, uniquingKeysWith: +)
            merged.warmupRepliesAfter += result.warmupRepliesAfter
            if let after = result.interruptedInWarmupAfter {
                merged.interruptedInWarmupAfter = max(merged.interruptedInWarmupAfter ?? .zero, after)
            }
            merged.longestGap = max(merged.longestGap, result.longestGap)
            merged.elapsed = max(merged.elapsed, result.elapsed)
            if let cpu = result.generatorCPU { merged.generatorCPU = max(merged.generatorCPU ?? .zero, cpu) }
        }
        return merged
    }
}

/// Joins the seconds the threads measure: a second is reported (and kept) once every thread has
/// ended it, with its counts added and its percentiles taken from the merged latencies. Each
/// thread ends its seconds in order, so they are reported in order; `finish` adds those only some
/// threads reached.
final class SecondMerger: Sendable {
    private struct Pending {
        var second: LoadRunner.Second
        var histogram: LatencyHistogram
        var reports: Int
        /// Some thread measured this second whole (only a part of it is the run's end).
        var wholeSomewhere = false
    }

    private struct State {
        var pending: [Int: Pending] = [:]
        var merged: [LoadRunner.Second] = []
    }

    private let threads: Int
    private let progress: @Sendable (LoadRunner.Second) -> Void
    private let state = Mutex(State())

    init(threads: Int, progress: @escaping @Sendable (LoadRunner.Second) -> Void) {
        self.threads = threads
        self.progress = progress
    }

    /// The seconds every thread has ended, in order.
    var merged: [LoadRunner.Second] { state.withLock { $0.merged } }

    /// One thread's report of one second.
    func add(_ second: LoadRunner.Second, _ histogram: LatencyHistogram) {
        state.withLock { state in
            var entry = state.pending[second.second] ?? Pending(
                second: LoadRunner.Second(second: second.second, requests: 0, errors: 0, timeouts: 0, p50: 0, p99: 0),
                histogram: LatencyHistogram(), reports: 0)
            entry.second.requests += second.requests
            entry.second.errors += second.errors
            entry.second.timeouts += second.timeouts
            entry.second.invalid += second.invalid
            if second.waited == true { entry.second.waited = true }
            if let length = second.seconds {
                entry.second.seconds = max(entry.second.seconds ?? 0, length)
            } else {
                entry.wholeSomewhere = true
            }
            entry.histogram.merge(histogram)
            entry.reports += 1
            guard entry.reports == threads else {
                state.pending[second.second] = entry
                return
            }
            state.pending[second.second] = nil
            Self.report(entry, into: &state, progress)
        }
    }

    /// After every thread has stopped: the seconds only some of them reached, in order; returns
    /// every merged second.
    func finish() -> [LoadRunner.Second] {
        state.withLock { state in
            for index in state.pending.keys.sorted() {
                guard let entry = state.pending.removeValue(forKey: index) else { continue }
                Self.report(entry, into: &state, progress)
            }
            return state.merged
        }
    }

    private static func report(_ pending: Pending, into state: inout State,
                               _ progress: @Sendable (LoadRunner.Second) -> Void) {
        var second = pending.second
        if pending.wholeSomewhere { second.seconds = nil }
        if second.requests > 0 { second.waited = nil }  // some thread had replies
        second.p50 = pending.histogram.count == 0 ? nil : pending.histogram.quantile(0.5)
        second.p99 = pending.histogram.count == 0 ? nil : pending.histogram.quantile(0.99)
        state.merged.append(second)
        progress(second)  // under the lock, so lines come out whole and in order
    }
}
