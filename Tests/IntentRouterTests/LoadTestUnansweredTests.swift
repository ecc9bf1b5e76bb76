@testable import FuelboardCLI
import Testing

/// Requests still unanswered when a run ends are counted, not dropped: those sent longer than the
/// timeout before timed out; the younger ones were in flight at the end.
struct LoadTestUnansweredTests {
    @Test func olderThanTheTimeout_timedOut_youngerWereInFlight() {
        let now = ContinuousClock.now
        let sent = [now - .seconds(6), now - .milliseconds(5001), now - .seconds(2), now - .milliseconds(1), now]
        let settled = LoadRunner.settle(sent, at: now, timeout: .seconds(5))
        #expect(settled.timedOut == 2)
        #expect(settled.inFlight == 3)
    }

    @Test func nothingOutstanding_isNothingToCount() {
        let settled = LoadRunner.settle([ContinuousClock.Instant](), at: .now, timeout: .seconds(1))
        #expect(settled.timedOut == 0 && settled.inFlight == 0)
    }
}
