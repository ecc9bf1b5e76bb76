@testable import FuelboardCLI
import Testing

/// The open loop sends on time: it sleeps only the whole milliseconds before a send is due (a
/// poll's wait is rounded up to a millisecond) and polls without waiting through the rest.
struct LoadRunnerScheduleTests {
    @Test func sleepsOnlyTheWholeMillisecondsBeforeASend() {
        #expect(LoadRunner.sleepBeforeSend(.microseconds(2500)) == .milliseconds(2))
        #expect(LoadRunner.sleepBeforeSend(.milliseconds(7)) == .milliseconds(7))
        #expect(LoadRunner.sleepBeforeSend(.microseconds(1999)) == .milliseconds(1))
    }

    @Test func doesNotSleepWhenTheSendIsLessThanAMillisecondAwayOrLate() {
        #expect(LoadRunner.sleepBeforeSend(.microseconds(999)) == .zero)
        #expect(LoadRunner.sleepBeforeSend(.microseconds(50)) == .zero)
        #expect(LoadRunner.sleepBeforeSend(.zero) == .zero)
        #expect(LoadRunner.sleepBeforeSend(.milliseconds(-3)) == .zero)
    }
}
