@testable import FuelboardCLI
import Testing
import ZeroMQ

/// The open loop sends on time without keeping a core busy: it sleeps on a timer through the gap
/// before a send but its last 100 µs (a wake-up comes late), which it polls through.
struct LoadRunnerScheduleTests {
    @Test func sleepsTheGapBeforeASend_butTheSpinWindow() {
        #expect(LoadRunner.timerDelay(before: .microseconds(2500)) == .microseconds(2400))
        #expect(LoadRunner.timerDelay(before: .microseconds(180)) == .microseconds(80))
        #expect(LoadRunner.timerDelay(before: .milliseconds(7)) == .microseconds(6900))
    }

    @Test func doesNotSleepWhenTheSendIsDueOrWithinTheSpinWindow() {
        #expect(LoadRunner.timerDelay(before: .microseconds(100)) == nil)
        #expect(LoadRunner.timerDelay(before: .microseconds(19)) == nil)
        #expect(LoadRunner.timerDelay(before: .zero) == nil)
        #expect(LoadRunner.timerDelay(before: .milliseconds(-3)) == nil)
    }

    /// Send k is due k periods after the first, exactly: 600,000/s for 2 s is 1,200,000 sends, not
    /// the 1,200,481 that adding a whole-nanosecond interval (1,666 ns for 1,666.67) scheduled.
    @Test func theOpenLoopsSchedule_keepsTheRateExactly() throws {
        var settings = LoadRunner.Settings(endpoint: "tcp://127.0.0.1:1")
        settings.rate = 600_000
        let session = try LoadSession(settings: settings, plan: LoadPlan(target: .lookup, bodies: [[]],
                                                                          typeName: "lookup.cheapest"), context: Context())
        #expect(session.openLoopDue(1_200_000) - session.firstOpenLoopSend == .seconds(2))
        #expect(session.openLoopDue(1) - session.firstOpenLoopSend == .nanoseconds(1667))
        #expect(session.openLoopDue(3) - session.firstOpenLoopSend == .nanoseconds(5000))
    }

    /// Sends never made by the end are counted from the first due in the measured time, the one
    /// due exactly as measuring began included (3/s after a 5 s warm-up: 5 × 3 came out a hair above 15
    /// and skipped it).
    @Test func theUnsentCount_startsAtTheFirstSendDueWhenMeasuringBegan() throws {
        var settings = LoadRunner.Settings(endpoint: "tcp://127.0.0.1:1")
        settings.rate = 3
        settings.warmup = .seconds(5)
        var session = try LoadSession(settings: settings, plan: LoadPlan(target: .lookup, bodies: [[]],
                                                                          typeName: "lookup.cheapest"), context: Context())
        #expect(session.openLoopDue(15) == session.measureFrom)
        let stopped = session.measureFrom + .seconds(1)
        session.countUnanswered([], at: stopped, now: stopped, periodNanos: 1e9 / 3)
        #expect(session.result.unsent == 3, "due at 0, 1/3 and 2/3 s of the measured time")
    }

    @Test func theTimer_firesAfterTheDelay_andIsQuietOnceAcknowledged() throws {
        let timer = try SendTimer()
        let poller = Poller()
        poller.add(fileDescriptor: timer.fileDescriptor)
        #expect(try poller.poll(timeout: .zero).isEmpty, "not armed: nothing to read")
        let armed = ContinuousClock.now
        timer.arm(after: .milliseconds(3))
        let ready = try poller.poll(timeout: .seconds(2))
        let waited = ContinuousClock.now - armed
        #expect(ready.contains(0))
        #expect(waited >= .milliseconds(3) && waited < .seconds(1), "\(waited)")
        timer.acknowledge()
        #expect(try poller.poll(timeout: .zero).isEmpty, "acknowledged: quiet until armed again")
    }
}
