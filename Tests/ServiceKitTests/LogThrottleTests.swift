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

extension LogThrottleTests {
    @Test func flush_writesTheCountOnceItsSecondIsOver_andOnlyOnce() {
        var throttle = LogThrottle(perSecond: 2, leftOutEvent: "lines not logged")
        let logger = Logger(label: "throttle-test", level: .error)  // below info: nothing is printed
        for offset in 0..<5 { _ = throttle.admit(now: UInt64(offset)) }
        #expect(throttle.hasLeftOut)
        let early = throttle.flush(logging: logger, now: Self.second / 2)
        #expect(early, "the second is not over: still waiting")
        #expect(throttle.hasLeftOut)
        let written = !throttle.flush(logging: logger, now: Self.second + 1)
        #expect(written)
        #expect(!throttle.hasLeftOut)
        // Told once: the next line carries no count, and starts a fresh second with room for two.
        let next = throttle.admit(now: Self.second + 2)
        #expect(next.write && next.leftOut == 0)
        let third = throttle.admit(now: Self.second + 3).write, fourth = throttle.admit(now: Self.second + 4).write
        #expect(third && !fourth)
    }

    @Test func flush_withNothingLeftOut_writesNothing() {
        var throttle = LogThrottle(perSecond: 2)
        _ = throttle.admit(now: 0)
        let waiting = throttle.flush(logging: Logger(label: "t", level: .error), now: Self.second * 5)
        #expect(!throttle.hasLeftOut && !waiting)
        let next = throttle.admit(now: Self.second * 5 + 1)
        #expect(next.leftOut == 0)
    }
}
