import Foundation
@testable import FuelboardCLI
import Testing

/// The load test's report: what a person reads and what `--json` gives, for a healthy run, a run
/// nothing answered, and the open loop (which has no number in flight).
struct LoadReportTextTests {
    private static func report(replies: Int, unanswered: Int = 0, timeouts: Int = 0, warmup: Int = 0,
                               rate: Double? = nil, target: LoadPlan.Target = .lookup, stalled: Int = 0,
                               seconds: [LoadRunner.Second] = [], run: LoadReport.RunInfo = .init()) -> LoadReport {
        var settings = LoadRunner.Settings(endpoint: "tcp://127.0.0.1:5599")
        settings.concurrency = 5
        settings.rate = rate
        settings.warmup = .seconds(1)
        var result = LoadRunner.Result()
        for index in 0..<replies { result.histogram.record(microseconds: Double(100 + index)) }
        result.completed = replies
        result.unanswered = unanswered
        result.timeouts = timeouts
        result.warmupCompleted = warmup
        result.stalledSeconds = stalled
        result.seconds = seconds
        result.elapsed = .seconds(3)
        let type = target == .lookup ? "lookup.cheapest" : "assistant.ask"
        return LoadReport(settings: settings, plan: LoadPlan(target: target, bodies: [[]], typeName: type),
                          result: result, run: run)
    }

    private static func json(_ report: LoadReport) throws -> [String: Any] {
        let data = try JSONEncoder().encode(report)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// A run of 5 requests in 0.3 ms said "in 0.0 ms" and `"seconds": 0` beside 16,924 req/s (QA).
    @Test func aVeryShortRun_keepsItsTime_toTheMicrosecond() {
        var result = LoadRunner.Result()
        for _ in 0..<5 { result.histogram.record(microseconds: 50) }
        result.completed = 5
        result.elapsed = .microseconds(295)
        let report = LoadReport(settings: LoadRunner.Settings(endpoint: "tcp://127.0.0.1:5599"),
                                plan: LoadPlan(target: .lookup, bodies: [[]], typeName: "lookup.cheapest"),
                                result: result)
        #expect(report.seconds == 0.000295)
        #expect(report.throughput == (5 / 0.000295).rounded())
        #expect(report.text.contains("5 replies in 0.295 ms"), "\(report.text)")
    }

    @Test func noReplyAtAll_failsAndSaysSo_withoutZeroLatencies() {
        let report = Self.report(replies: 0, unanswered: 5)
        #expect(report.failed)
        #expect(report.text.contains("no replies came from tcp://127.0.0.1:5599 though it answered the ping"))
        #expect(report.text.contains("latency     no replies"))
        #expect(!report.text.contains("0.000 ms"))
        #expect(report.text.contains("unanswered  5 still in flight at the end"))
    }

    /// An open loop nothing answered: the unanswered requests' age is the latencies' max only when
    /// none timed out (those are at the timeout, 5 s, longer than a 3 s run: it read "the
    /// unanswered had waited up to 5.0 s").
    @Test func noReplyAtAll_inAnOpenLoop_givesTheUnansweredTheirOwnAge() {
        func report(timeouts: Int) -> LoadReport {
            var settings = LoadRunner.Settings(endpoint: "tcp://127.0.0.1:5599")
            settings.rate = 1000
            var result = LoadRunner.Result()
            for _ in 0..<10 { result.histogram.record(microseconds: 2_900_000) }
            result.unansweredInLatency = 10
            for _ in 0..<timeouts { result.histogram.record(microseconds: 5_000_000) }
            result.timeouts = timeouts
            result.timeoutsInLatency = timeouts
            result.elapsed = .seconds(3)
            return LoadReport(settings: settings, plan: LoadPlan(target: .lookup, bodies: [[]], typeName: "lookup.cheapest"),
                              result: result)
        }
        #expect(report(timeouts: 0).text.contains("no replies; the 10 requests unanswered at the end had waited up to 2.9 s"))
        let both = report(timeouts: 4).text
        #expect(both.contains("no replies; 10 requests unanswered at the end and 4 timed out, in the latencies up to 5.0 s"),
                "\(both)")
        #expect(!both.contains("had waited up to 5.0 s"))
    }

    @Test func repliesOnlyInTheWarmUp_stillFail_andSaySo() {
        let report = Self.report(replies: 0, warmup: 40)
        #expect(report.failed)
        #expect(report.text.contains("no replies came from tcp://127.0.0.1:5599 after the warm-up (40 came during it)"))
    }

    @Test func aFewInFlightAtTheEnd_doNotFailAHealthyRun_butAreCounted() throws {
        let report = Self.report(replies: 1000, unanswered: 5)
        #expect(!report.failed)
        #expect(report.text.contains("unanswered  5 still in flight at the end"))
        #expect(report.text.contains("normal up to 5 in a closed loop"))
        #expect(!report.text.contains("FAILED"))
        #expect(try Self.json(report)["unanswered"] as? Int == 5)
    }

    @Test func timeouts_failTheRun() {
        #expect(Self.report(replies: 1000, timeouts: 1).failed)
    }

    @Test func theWarmUpReplies_appearInTheText() {
        let text = Self.report(replies: 1000, warmup: 250).text
        #expect(text.contains("warm-up     250 replies in 1 s first, not counted"))
    }

    @Test func theTargetLine_namesTheServiceThenTheRequestType() {
        #expect(Self.report(replies: 10).text
            .hasPrefix("target      fuel-lookup (lookup.cheapest) at tcp://127.0.0.1:5599\n"))
        #expect(Self.report(replies: 10, target: .router).text
            .hasPrefix("target      intent-router (assistant.ask) at tcp://127.0.0.1:5599\n"))
    }

    /// The report and the chart say what was asked and where: uniform points change the answers
    /// (far from stations most asks find nothing), and only the JSON said so.
    @Test func theWorkloadLine_saysWhatWasAskedAndWhere() {
        var run = LoadReport.RunInfo()
        run.fuel = "E10"
        run.radiusMiles = 2.5
        run.pointsAsked = "stations"
        run.pointsUsed = "stations"
        run.seed = 7
        let lookup = Self.report(replies: 1, run: run)
        let line = "workload    E10 within 2.5 mi, limit 1, at points near the loaded stations (seed 7)"
        #expect(lookup.text.contains(line + "\n"), "\(lookup.text)")
        #expect(LoadChart.svg(lookup).contains(">E10 within 2.5 mi, limit 1, at points near the loaded stations (seed 7)<"))
        run.fuel = nil
        run.radiusMiles = nil
        run.pointsUsed = "uniform"
        let router = Self.report(replies: 1, target: .router, run: run)
        #expect(router.text.contains("workload    generated asks for the cheapest fuel from 5000 users, at points uniform "
            + "over the UK (seed 7)"), "\(router.text)")
    }

    /// Requests left waiting on a server that stopped answering are the stall's, not "normal" (a
    /// QA run's report reassured so after its server was killed).
    @Test func theUnansweredLine_behindAStall_doesNotCallThemNormal() {
        let calm = Self.report(replies: 100, unanswered: 3).text
        #expect(calm.contains("unanswered  3 still in flight at the end, sent within the timeout: normal up to 5 in a "
            + "closed loop, not failures of their own"), "\(calm)")
        let silentEnd = [LoadRunner.Second(second: 1, requests: 100, errors: 0, timeouts: 0, p50: 100, p99: 199),
                         LoadRunner.Second(second: 2, requests: 0, errors: 0, timeouts: 0, p50: nil, p99: nil,
                                           waited: true, stalled: true)]
        let stalled = Self.report(replies: 100, unanswered: 5, stalled: 1, seconds: silentEnd).text
        #expect(stalled.contains("waiting on a server that had stopped answering (the stall is the failure)"), "\(stalled)")
        #expect(!stalled.contains("normal up to"))
        // A stall the server recovered from: the requests out at the end are the normal last few.
        let recovered = Self.report(replies: 100, unanswered: 5, stalled: 1, seconds: silentEnd.reversed()).text
        #expect(recovered.contains("normal up to 5 in a closed loop"), "\(recovered)")
        #expect(!recovered.contains("waiting on a server"))
        // A short last second without replies in which nothing waited (a low rate): not a stall.
        let quietEnd = silentEnd.reversed() + [LoadRunner.Second(second: 3, requests: 0, errors: 0, timeouts: 0,
                                                                 p50: nil, p99: nil, seconds: 0.2)]
        let quiet = Self.report(replies: 100, unanswered: 5, stalled: 1, seconds: quietEnd).text
        #expect(quiet.contains("normal up to 5 in a closed loop"), "\(quiet)")
    }

    @Test func anOpenLoopReport_claimsNoConcurrency_andStaysDecodable() throws {
        let report = Self.report(replies: 10, rate: 100)
        let json = try Self.json(report)
        #expect(json["concurrency"] == nil && json["rate"] as? Double == 100)
        #expect(!report.text.contains("in flight,") && !report.text.contains("normal up to"))
        let decoded = try JSONDecoder().decode(LoadReport.self, from: try JSONEncoder().encode(report))
        #expect(decoded.concurrency == nil && decoded.requests == 10)
        #expect(try Self.json(Self.report(replies: 10))["concurrency"] as? Int == 5)
    }

    @Test func theProgressLine_showsTimeoutsOnlyWhenThereAreSome_andNoZeroLatencyWithoutReplies() {
        let quiet = LoadRunner.Second(second: 2, requests: 0, errors: 0, timeouts: 7, p50: 0, p99: 0)
        #expect(LoadReport.progressLine(quiet) == "[    2s]      0 req/s  errors 0  timeouts 7  no measured replies")
        let paused = LoadRunner.Second(second: 4, requests: 0, errors: 0, timeouts: 0, p50: nil, p99: nil, waited: true)
        #expect(LoadReport.progressLine(paused) == "[    4s]      0 req/s  errors 0  no replies, requests waiting")
        let busy = LoadRunner.Second(second: 3, requests: 1500, errors: 1, timeouts: 0, p50: 250, p99: 1200)
        #expect(LoadReport.progressLine(busy) == "[    3s]   1500 req/s  errors 1  p50 0.250 ms  p99 1.200 ms")
        // The last partial second is as wide as a whole one: the columns stayed one character out (QA).
        let last = LoadRunner.Second(second: 13, requests: 750, errors: 0, timeouts: 0, p50: 250, p99: 1200, seconds: 0.5)
        #expect(LoadReport.progressLine(last) == "[ 12.5s]   1500 req/s  errors 0  p50 0.250 ms  p99 1.200 ms")
    }

    @Test func unknownTypeErrors_askWhetherTheEndpointIsTheRightService() {
        var settings = LoadRunner.Settings(endpoint: "tcp://127.0.0.1:5550")
        settings.concurrency = 5
        var result = LoadRunner.Result()
        result.histogram.record(microseconds: 100)
        result.completed = 1
        result.errorsByCode = ["unknown_type": 1]
        result.elapsed = .seconds(1)
        let report = LoadReport(settings: settings, plan: LoadPlan(target: .lookup, bodies: [[]],
                                                                   typeName: "lookup.cheapest"), result: result)
        #expect(report.failures.contains("unknown_type: is fuel-lookup what answers at tcp://127.0.0.1:5550? It does "
            + "not know lookup.cheapest"), "\(report.failures)")
        #expect(report.text.contains("FAILED      1 request failed; unknown_type: is fuel-lookup what answers at "))
    }

    @Test func aSlowRate_isReportedInHundredths_notRoundedToAWholeRequest() {
        var settings = LoadRunner.Settings(endpoint: "tcp://127.0.0.1:5599")
        settings.rate = 0.5
        var result = LoadRunner.Result()
        result.histogram.record(microseconds: 100)
        result.histogram.record(microseconds: 100)
        result.completed = 2
        result.elapsed = .seconds(3)
        let report = LoadReport(settings: settings, plan: LoadPlan(target: .lookup, bodies: [[]],
                                                                   typeName: "lookup.cheapest"), result: result)
        #expect(report.throughput == 0.67)
        #expect(report.text.contains("throughput  0.67 req/s"), "\(report.text)")
        #expect(report.text.contains("open loop, 0.5 req/s offered"))
    }
}
