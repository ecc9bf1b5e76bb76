import ServiceKit
import Testing

struct LogThrottleTests {
    private static let second: UInt64 = 1_000_000_000

    @Test func admitsUpToItsCapInASecond_thenLeavesLinesOut() {
        var throttle = LogThrottle(perSecond: 3)
        let start: UInt64 = 5 * Self.second
        let decisions = (0..<5).map { throttle.admit(now: start + UInt64($0) * 1000).write }
        #expect(decisions == [true, true, true, false, false])
    }

    @Test func theFirstLineOfALaterSecond_saysHowManyWereLeftOut() {
        var throttle = LogThrottle(perSecond: 2)
        for offset in 0..<7 { _ = throttle.admit(now: UInt64(offset)) }
        let next = throttle.admit(now: Self.second + 10)
        #expect(next.write && next.leftOut == 5)
        // Told once: the next line in that second, and the first of the one after, say nothing more.
        #expect(throttle.admit(now: Self.second + 20).leftOut == 0)
        #expect(throttle.admit(now: 3 * Self.second).leftOut == 0)
    }

    @Test func aQuietService_isNeverThrottled() {
        var throttle = LogThrottle(perSecond: 1)
        for second in 0..<10 {
            let decision = throttle.admit(now: UInt64(second) * Self.second)
            #expect(decision.write && decision.leftOut == 0)
        }
    }
}
