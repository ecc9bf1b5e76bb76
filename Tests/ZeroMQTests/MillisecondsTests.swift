import Testing
@testable import ZeroMQ

/// libzmq takes timeouts in whole milliseconds, where 0 means "do not wait" and -1 "forever".
struct MillisecondsTests {
    @Test func aFractionOfAMillisecondRoundsUp() {
        // Truncated, 0.4 ms would become 0: a loop polling until its timer is due then spins.
        #expect(Socket.milliseconds(.microseconds(400)) == 1)
        #expect(Socket.milliseconds(.nanoseconds(1)) == 1)
        #expect(Socket.milliseconds(.microseconds(20_001)) == 21)
        #expect(Socket.milliseconds(.seconds(1) + .microseconds(1)) == 1001)
    }

    @Test func wholeMillisecondsStayAsTheyAre() {
        #expect(Socket.milliseconds(.milliseconds(20)) == 20)
        #expect(Socket.milliseconds(.seconds(3)) == 3000)
    }

    @Test func nothingOrLessIsNoWaitAndNilIsForever() {
        #expect(Socket.milliseconds(.zero) == 0)
        #expect(Socket.milliseconds(.milliseconds(-5)) == 0)
        #expect(Socket.milliseconds(.nanoseconds(-1)) == 0)
        #expect(Socket.milliseconds(nil) == -1)
        #expect(Socket.milliseconds(nil, forever: 0) == 0)
    }

    @Test func aDurationPastInt32IsClamped() {
        #expect(Socket.milliseconds(.seconds(10_000_000)) == Int32.max)
        #expect(Socket.milliseconds(.seconds(Int64.max)) == Int32.max)
    }
}
