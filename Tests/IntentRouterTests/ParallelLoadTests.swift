@testable import FuelboardCLI
import ServiceKit
import Synchronization
import Testing

/// `fuelboard loadtest --threads N` splits the load between N generator threads and merges what
/// they measured into one report.
struct ParallelLoadTests {
    private static func settings(concurrency: Int = 1, connections: Int = 1, threads: Int, rate: Double? = nil,
                                 requests: Int? = nil) -> LoadRunner.Settings {
        var settings = LoadRunner.Settings(endpoint: "tcp://127.0.0.1:1")
        settings.concurrency = concurrency
        settings.connections = connections
        settings.threads = threads
        settings.rate = rate
        settings.maxRequests = requests
        return settings
    }

    @Test func shares_splitTheLoadAsEvenlyAsWholeNumbersAllow() {
        let parts = ParallelLoad.shares(of: Self.settings(concurrency: 50, connections: 7, threads: 3, requests: 1000),
                                        planSize: 20_000)
        #expect(parts.map(\.concurrency) == [17, 17, 16])
        #expect(parts.map(\.connections) == [3, 2, 2])
        #expect(parts.map(\.maxRequests) == [334, 333, 333])
        #expect(parts.allSatisfy { $0.threads == 1 && $0.rate == nil })
        #expect(Set(parts.map(\.firstSequence)).count == 3, "each thread its own request ids")
    }

    /// Thread 2 of 2 started 7 requests after thread 1 in the plan (ids 1,000,000,007 apart, a plan
    /// of 20,000): 193 of 400 requests went out twice (QA). Each thread now starts its own part.
    @Test(arguments: [2, 3, 4])
    func shares_startEachThreadAtItsOwnPartOfThePlan_withIdsThatNeverMeet(threads: Int) {
        let size = 20_000
        let parts = ParallelLoad.shares(of: Self.settings(threads: threads, requests: 400), planSize: size)
        let starts = parts.map { $0.firstSequence % size }
        #expect(starts == (0..<threads).map { $0 * size / threads })
        let sent = parts.flatMap { part in (part.firstSequence ..< part.firstSequence + part.maxRequests!).map { $0 % size } }
        #expect(Set(sent).count == 400, "no request of the plan sent twice")
        let ids = parts.map(\.firstSequence)
        #expect(zip(ids, ids.dropFirst()).allSatisfy { $1 - $0 > 1_000_000_000 })
    }

    @Test func shares_ofAnOpenLoop_splitTheRate_andInterleaveTheSchedules() {
        let parts = ParallelLoad.shares(of: Self.settings(threads: 4, rate: 1000), planSize: 20_000)
        #expect(parts.map(\.rate) == [250, 250, 250, 250])
        // One request every millisecond overall, each thread's every 4 ms: they start 1 ms apart.
        #expect(parts.map(\.openLoopOffset) == [.zero, .milliseconds(1), .milliseconds(2), .milliseconds(3)])
    }

    @Test func oneThread_keepsTheSettingsAsGiven() {
        let parts = ParallelLoad.shares(of: Self.settings(concurrency: 8, connections: 2, threads: 1), planSize: 20_000)
        #expect(parts.count == 1 && parts[0].concurrency == 8 && parts[0].connections == 2)
        #expect(parts[0].firstSequence == 0 && parts[0].openLoopOffset == .zero)
    }

    private static func histogram(_ values: [Double]) -> LatencyHistogram {
        var histogram = LatencyHistogram()
        for value in values { histogram.record(microseconds: value) }
        return histogram
    }

    private static func second(_ index: Int, requests: Int, errors: Int = 0) -> LoadRunner.Second {
        LoadRunner.Second(second: index, requests: requests, errors: errors, timeouts: 0, p50: 0, p99: 0)
    }

    private final class Lines: Sendable {
        let seconds = Mutex<[LoadRunner.Second]>([])
    }

    @Test func aSecond_isReportedOnceEveryThreadHasEndedIt_withCountsAddedAndLatenciesMerged() {
        let lines = Lines()
        let merger = SecondMerger(threads: 2) { second in lines.seconds.withLock { $0.append(second) } }
        merger.add(Self.second(1, requests: 3, errors: 1), Self.histogram([10, 10, 10]))
        #expect(lines.seconds.withLock { $0.isEmpty }, "one thread of two has ended second 1")
        merger.add(Self.second(1, requests: 5), Self.histogram([1000, 1000, 1000, 1000, 1000]))
        merger.add(Self.second(2, requests: 1), Self.histogram([10]))
        let reported = lines.seconds.withLock { $0 }
        #expect(reported.count == 1 && merger.merged.count == 1)
        #expect(reported.first?.requests == 8 && reported.first?.errors == 1)
        // 5 of the 8 took ~1 ms: the merged median is theirs, not either thread's own.
        #expect((reported.first?.p50 ?? 0) > 900 && (reported.first?.p99 ?? 0) > 900)
    }

    /// The progress line of a second with no reply says requests waited when a thread's did, and
    /// not when another thread had replies in it.
    @Test func aSecond_waited_onlyWhenNoThreadHadAReplyInIt() {
        let lines = Lines()
        let merger = SecondMerger(threads: 2) { second in lines.seconds.withLock { $0.append(second) } }
        var waited = Self.second(1, requests: 0)
        waited.waited = true
        merger.add(waited, LatencyHistogram())
        merger.add(Self.second(1, requests: 0), LatencyHistogram())
        waited.second = 2
        merger.add(waited, LatencyHistogram())
        merger.add(Self.second(2, requests: 4), Self.histogram([10, 10, 10, 10]))
        let reported = lines.seconds.withLock { $0 }
        #expect(reported.map(\.waited) == [true, nil], "\(reported)")
    }

    @Test func merge_addsTheCounts_andKeepsTheLongestTimeAndTheLargestCPUReading() {
        var first = LoadRunner.Result()
        first.histogram = Self.histogram([10, 20])
        first.completed = 2
        first.errorsByCode = ["bad_request": 1]
        first.elapsed = .seconds(2)
        first.generatorCPU = .milliseconds(900)
        var second = LoadRunner.Result()
        second.histogram = Self.histogram([30])
        second.completed = 1
        second.timeouts = 2
        second.unanswered = 3
        second.errorsByCode = ["bad_request": 2, "internal": 1]
        second.elapsed = .milliseconds(2100)
        second.generatorCPU = .milliseconds(950)
        let merged = ParallelLoad.merge([first, second])
        #expect(merged.completed == 3 && merged.histogram.count == 3)
        #expect(merged.errorsByCode == ["bad_request": 3, "internal": 1])
        #expect(merged.timeouts == 2 && merged.unanswered == 3)
        #expect(merged.elapsed == .milliseconds(2100) && merged.generatorCPU == .milliseconds(950))
    }
}
