import Foundation
@testable import FuelboardCLI
import Testing

/// The report says how busy the load generator itself was, and warns in a closed loop when it
/// kept a whole core busy (then it, not the server, may be what limits the rate).
struct LoadReportGeneratorTests {
    private static func report(cpu: Duration?, over elapsed: Duration, rate: Double? = nil) -> LoadReport {
        var settings = LoadRunner.Settings(endpoint: "tcp://127.0.0.1:1")
        settings.rate = rate
        var result = LoadRunner.Result()
        result.completed = 1000
        result.warmupCompleted = 250
        result.elapsed = elapsed
        result.generatorCPU = cpu
        let plan = LoadPlan(target: .lookup, bodies: [[]], typeName: "lookup.cheapest")
        return LoadReport(settings: settings, plan: plan, result: result)
    }

    @Test func reportsTheGeneratorsShareOfACoreAndTheWarmUpApart() {
        let report = Self.report(cpu: .milliseconds(800), over: .seconds(2))
        #expect(report.generatorCpuSeconds == 0.8)
        #expect(report.warmupRequests == 250 && report.requests == 1000)
        #expect(report.text.contains("generator   0.40 of a core"))
        #expect(!report.text.contains("limits the rate"))
    }

    @Test func aClosedLoopGeneratorNearAWholeCore_isCalledAPossibleLimit() {
        let report = Self.report(cpu: .milliseconds(1900), over: .seconds(2))
        #expect(report.text.contains("0.95 of a core"))
        #expect(report.text.contains("may be what limits the rate"))
    }

    @Test func anOpenLoopGenerator_isNotCalledALimit_itPollsJustBeforeEachSend() {
        let report = Self.report(cpu: .milliseconds(2400), over: .seconds(2), rate: 20_000)
        #expect(report.text.contains("1.20 of a core"))
        #expect(report.text.contains("including polling just before each send (it sleeps between sends; above "
            + "~10,000 a second the gaps are too short to sleep)"), "\(report.text)")
        #expect(!report.text.contains("limits the rate"))
        let slow = Self.report(cpu: .milliseconds(100), over: .seconds(2), rate: 100)
        #expect(slow.text.contains("0.05 of a core (its own CPU time over the run), including polling just before "
            + "each send (it sleeps between sends)"), "\(slow.text)")
        // A busy generator at a slow rate (a run of a millisecond, say): its gaps were long enough to sleep.
        let tiny = Self.report(cpu: .milliseconds(1), over: .milliseconds(1), rate: 100)
        #expect(tiny.text.contains("(it sleeps between sends)") && !tiny.text.contains("too short to sleep"),
                "\(tiny.text)")
    }

    /// A generator taking most of the machine (two open-loop threads on two cores) crowds a server
    /// on it: said, whatever the loop (the latencies tripled with no send lag to show why, QA).
    @Test func aGeneratorTakingMostOfTheMachine_isSaidToCrowdAServerOnIt() {
        let machine = ProcessInfo.processInfo.activeProcessorCount
        let busy = Self.report(cpu: .milliseconds(Int64(machine) * 1_600), over: .seconds(2), rate: 20_000)
        #expect(busy.text.contains("that is 80% of this machine's \(machine) cores: a server on this machine waits "
            + "for a core, and its latencies include that wait (fewer --threads?)"), "\(busy.text)")
        let light = Self.report(cpu: .milliseconds(Int64(machine) * 800), over: .seconds(2), rate: 20_000)
        #expect(!light.text.contains("of this machine's"), "\(light.text)")
    }

    @Test func withoutAReading_thereIsNoGeneratorLine() {
        #expect(!Self.report(cpu: nil, over: .seconds(2)).text.contains("generator"))
    }
}
