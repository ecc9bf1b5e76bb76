import ServiceKit
import Testing

/// `sys.stats` gives latency over the last one to two minutes beside the since-start figures: a
/// week's quantiles hid a bad last minute (operator QA).
struct RecentLatencyTests {
    private let minute = RecentLatency.windowNanoseconds
    private let start: UInt64 = 1_000_000_000_000

    @Test func valuesOfThisWindowAndTheOneBefore_areCounted_olderOnesAreNot() {
        var recent = RecentLatency()
        for _ in 0..<100 { recent.record(microseconds: 5_000, now: start) }  // a slow first minute
        for _ in 0..<100 { recent.record(microseconds: 10, now: start + minute + 1) }
        let twoWindows = recent.snapshot(now: start + minute + 30_000_000_000)
        #expect(twoWindows.histogram.count == 200)
        #expect(twoWindows.histogram.maxMicroseconds == 5_000)
        #expect(twoWindows.seconds == 90)

        // A minute later the slow minute has left; the fast one is the window before.
        let later = recent.snapshot(now: start + 2 * minute + 1)
        #expect(later.histogram.count == 100)
        #expect(later.histogram.quantile(0.99) < 20)
    }

    @Test func afterTwoQuietWindows_nothingIsLeft_andTheCoverIsTheQuietTime() {
        var recent = RecentLatency()
        recent.record(microseconds: 80, now: start)
        let quiet = recent.snapshot(now: start + 5 * minute)
        #expect(quiet.histogram.count == 0)
        #expect(quiet.seconds < 60)
        recent.record(microseconds: 7, now: start + 5 * minute)
        let again = recent.snapshot(now: start + 5 * minute + 2_000_000_000)
        #expect(again.histogram.count == 1 && again.histogram.maxMicroseconds == 7)
    }

    @Test func beforeAnyRequest_coversNothing() {
        let empty = RecentLatency().snapshot(now: start)
        #expect(empty.histogram.count == 0 && empty.seconds == 0)
    }

    @Test func serviceStats_reportBoth_theRecentWithTheSecondsItCovers() {
        var stats = ServiceStats()
        stats.record(slot: 0, error: nil, microseconds: 900, now: start)
        stats.record(slot: 0, error: nil, microseconds: 3, now: start + 3 * minute)
        let body = stats.snapshot(service: "s", extra: [:], now: start + 3 * minute + 10_000_000_000)
        #expect(body.latencyMicroseconds.count == 2 && body.latencyMicroseconds.windowSeconds == nil)
        let recent = body.recentLatencyMicroseconds
        #expect(recent?.count == 1 && recent?.max == 3 && recent?.windowSeconds == 10)
    }
}
