import Foundation
import Messages
@testable import FuelboardCLI
import Testing

/// What the report owns up to: an overloaded open loop's requests due, sent and left unanswered,
/// seconds without replies, an interrupted warm-up, the warm-up's late replies, and the JSON's
/// layout (schema version, options, units rounded).
struct LoadReportHonestyTests {
    private static func report(replies: Int, rate: Double? = nil, warmup: Duration = .seconds(1),
                               configure: (inout LoadRunner.Result) -> Void = { _ in }) -> LoadReport {
        var settings = LoadRunner.Settings(endpoint: "tcp://127.0.0.1:5599")
        settings.concurrency = 5
        settings.warmup = warmup
        settings.rate = rate
        var result = LoadRunner.Result()
        for index in 0..<replies { result.histogram.record(microseconds: 100 + Double(index) / 3) }
        result.completed = replies
        result.sent = replies
        result.elapsed = .seconds(2)
        configure(&result)
        let plan = LoadPlan(target: .lookup, bodies: [[]], typeName: "lookup.cheapest")
        return LoadReport(settings: settings, plan: plan, result: result,
                          run: LoadReport.RunInfo(fuel: "B7", radiusMiles: 5, pointsAsked: "stations",
                                                  pointsUsed: "uniform (no stations from price-ingest)", seed: 7))
    }

    private static func json(_ report: LoadReport) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: try JSONEncoder().encode(report)) as? [String: Any])
    }

    @Test func anOverloadedOpenLoop_saysWhatWasDueSentAndAnswered_andIsBehind() throws {
        // 1000/s for 2 s: 2000 due, 1500 sent, 900 answered; 600 in flight and 500 never sent at the end.
        let report = Self.report(replies: 900, rate: 1000) { result in
            result.sent = 1500
            result.unsent = 500
            result.unanswered = 600
            result.unansweredInLatency = 1100
            for _ in 0..<1100 { result.histogram.record(microseconds: 900_000) }
        }
        #expect(report.fellBehind && !report.failed && report.exitCode == LoadReport.behindExitCode)
        #expect(report.text.contains("requests    900 replies in 2.00 s; 2000 requests due on the schedule, 1500 sent "
            + "(500 due but not sent by the end)"), "\(report.text)")
        #expect(report.text.contains("of 2000 requests: 900 answered and 1100 unanswered at the end, counted at their "
            + "age then (a lower bound)"), "\(report.text)")
        // The generator may be what fell behind (it reads the replies): the line says both.
        #expect(report.text.contains("BEHIND      the server, or this generator taking its replies"))
        #expect(report.text.contains("did not keep up with 1000 req/s (exit 3)"))
        let json = try Self.json(report)
        #expect(json["fellBehind"] as? Bool == true && json["scheduled"] as? Int == 2000 && json["sent"] as? Int == 1500)
        #expect(json["unsent"] as? Int == 500 && json["unansweredInLatency"] as? Int == 1100)
        // More than half of the requests waited 900 ms or more: the median says so.
        #expect((report.latencyMicroseconds.p50) >= 899_000)
    }

    /// Every request due is in the sentence: those that timed out too (16,000 due read "of 13,966
    /// requests: 13,965 answered and 1 unanswered").
    @Test func anOpenLoopsRequests_countTheTimedOutToo() {
        let report = Self.report(replies: 900, rate: 1000) { result in
            result.timeouts = 100
            result.timeoutsInLatency = 100
            result.unansweredInLatency = 1000
        }
        #expect(report.text.contains("of 2000 requests: 900 answered, 100 timed out and 1000 unanswered at the end"),
                "\(report.text)")
    }

    /// `--spin` polls through the last millisecond: the generator line says that, not that it sleeps.
    @Test func theGeneratorLine_ofASpinningOpenLoop_saysItSpins() {
        var settings = LoadRunner.Settings(endpoint: "tcp://127.0.0.1:5599")
        settings.rate = 1000
        settings.spin = true
        var result = LoadRunner.Result()
        for _ in 0..<2000 { result.histogram.record(microseconds: 100) }
        result.completed = 2000
        result.elapsed = .seconds(2)
        result.generatorCPU = .seconds(2)
        let report = LoadReport(settings: settings, plan: LoadPlan(target: .lookup, bodies: [[]], typeName: "lookup.cheapest"),
                                result: result)
        #expect(report.text.contains("including polling through the last millisecond before each send (--spin)"),
                "\(report.text)")
        #expect(!report.text.contains("it sleeps between sends"))
    }

    @Test func aShortRun_saysItsTimeInMilliseconds() {
        let report = Self.report(replies: 3) { $0.elapsed = .milliseconds(4) }
        #expect(report.text.contains("requests    3 replies in 4.000 ms"), "\(report.text)")
    }

    @Test func anOpenLoopThatKeptUp_passesWithExitZero() {
        let report = Self.report(replies: 2000, rate: 1000)
        #expect(!report.fellBehind && report.exitCode == 0 && !report.text.contains("BEHIND"))
    }

    /// A rate whose schedule holds a fraction of a request (1.5/s for 1 s: one due) keeps up with
    /// every request due answered: it was "BEHIND" (exit 3) against 1.5 replies a second (QA).
    @Test func anOpenLoopWhoseScheduleHoldsAFraction_keepsUpWithEveryRequestDueAnswered() {
        let report = Self.report(replies: 1, rate: 1.5) { $0.elapsed = .seconds(1) }
        #expect(report.scheduled == 1)
        #expect(!report.fellBehind && report.exitCode == 0, "\(report.text)")
        let behind = Self.report(replies: 1, rate: 1.5) { result in
            result.elapsed = .seconds(2)
            result.unsent = 2
            result.unansweredInLatency = 2
        }
        #expect(behind.fellBehind, "\(behind.text)")
    }

    /// Timeouts of requests lost with their connection are told apart from those counted at the
    /// --timeout, in the text, the failure and the chart.
    @Test func timeoutsLostWithTheirConnection_areSaidApart() {
        let report = Self.report(replies: 500) { result in
            result.timeouts = 7
            result.timeoutsInLatency = 7
            result.timeoutsOnDisconnect = 3
            for _ in 0..<3 { result.histogram.record(microseconds: 80_000) }
            for _ in 0..<4 { result.histogram.record(microseconds: 5_000_000) }
        }
        #expect(report.timeoutsAtTimeout == 4 && report.timeoutsAtRealLatency == 0)
        #expect(report.text.contains("with the 7 requests that timed out, 3 lost when their connection dropped, at "
            + "their age then, the other 4 counted at the --timeout"), "\(report.text)")
        #expect(report.failures.contains("7 requests timed out (3 lost when their connection dropped: the server closed it)"))
        #expect(LoadChart.svg(report).contains("3 lost when their connection dropped (their age then)"))
    }

    /// `--max-p99`: a p99 above it fails the run, saying both; at or below, it passes.
    @Test func aP99AboveMaxP99_failsTheRun() throws {
        func report(maxP99: Duration) -> LoadReport {
            var settings = LoadRunner.Settings(endpoint: "tcp://127.0.0.1:5599")
            settings.maxP99 = maxP99
            var result = LoadRunner.Result()
            for index in 0..<1000 { result.histogram.record(microseconds: index < 980 ? 500 : 30_000) }
            result.completed = 1000
            result.sent = 1000
            result.elapsed = .seconds(2)
            return LoadReport(settings: settings, plan: LoadPlan(target: .lookup, bodies: [[]], typeName: "lookup.cheapest"),
                              result: result)
        }
        let strict = report(maxP99: .milliseconds(10))
        #expect(strict.failed && strict.exitCode == 1)
        #expect(strict.failures.contains { $0.hasPrefix("p99 ") && $0.hasSuffix(" ms is above --max-p99 10.000 ms") },
                "\(strict.failures)")
        #expect(try Self.json(strict)["options"].flatMap { ($0 as? [String: Any])?["maxP99Microseconds"] as? Double } == 10_000)
        let lenient = report(maxP99: .milliseconds(50))
        #expect(!lenient.failed && lenient.exitCode == 0, "\(lenient.failures)")
    }

    /// With no reply at all, percentile 0 was the age (1.1 µs) of a request never answered: it is
    /// the median of what is in the latencies, as it is when that is lower than the fastest reply.
    @Test func withoutAnyReply_percentileZeroIsNoUnansweredRequestsAge() {
        let report = Self.report(replies: 0, rate: 1000) { result in
            result.unansweredInLatency = 3
            for age in [1.125, 500_000, 900_000] { result.histogram.record(microseconds: age) }
        }
        #expect(report.distribution[0][1] == report.distribution[1][1], "\(report.distribution)")
        #expect(report.distribution[0][1] > 1_000, "\(report.distribution)")
    }

    @Test func aSecondWithoutReplies_hasNullLatencies_inTheJSON() throws {
        let report = Self.report(replies: 10) { result in
            result.seconds = [LoadRunner.Second(second: 1, requests: 10, errors: 0, timeouts: 0, p50: 100.123456,
                                                p99: 200),
                              LoadRunner.Second(second: 2, requests: 0, errors: 0, timeouts: 0, p50: nil, p99: nil)]
        }
        let seconds = try #require(try Self.json(report)["perSecond"] as? [[String: Any]])
        #expect(seconds[1]["p50"] is NSNull && seconds[1]["p99"] is NSNull, "\(seconds)")
        #expect(seconds[0]["p50"] as? Double == 100.123)
    }

    @Test func theJSON_hasItsSchemaVersion_startTime_options_andRoundedMicroseconds() throws {
        let json = try Self.json(Self.report(replies: 1000))
        #expect(json["schemaVersion"] as? Int == 2)
        let started = try #require(json["startedAt"] as? String)
        #expect((try? Date(started, strategy: .iso8601)) != nil, "\(started)")
        let options = try #require(json["options"] as? [String: Any])
        #expect(options["fuel"] as? String == "B7" && options["radiusMiles"] as? Double == 5 && options["seed"] as? Int == 7)
        #expect(options["points"] as? String == "uniform (no stations from price-ingest)")
        #expect(options["pointsAsked"] as? String == "stations" && options["concurrency"] as? Int == 5)
        #expect(options["warmupSeconds"] as? Double == 1 && options["durationSeconds"] as? Double == 10)
        let latency = try #require(json["latencyMicroseconds"] as? [String: Double])
        for (name, value) in latency {
            #expect((value * 1000).rounded() == value * 1000, "\(name) \(value) has more than 3 decimals")
        }
        #expect(json["fellBehind"] as? Bool == false)
    }

    @Test func stationPointsThatFellBackToUniform_saySoInTheText() {
        let text = Self.report(replies: 10).text
        #expect(text.contains("points      uniform: --points stations asked, but price-ingest gave no station positions"),
                "\(text)")
        #expect(!text.contains("(no stations from price-ingest)"), "said twice")
    }

    @Test func ctrlCInTheWarmUp_saysSo_withTheTimeItRan() {
        let report = Self.report(replies: 0, warmup: .seconds(5)) { result in
            result.interruptedInWarmupAfter = .milliseconds(1500)
            result.interrupted = true
            result.warmupCompleted = 1438
            result.elapsed = .zero
        }
        #expect(report.text.contains("warm-up     interrupted after 1.5 s (1438 replies): nothing was measured"),
                "\(report.text)")
        #expect(report.failures == ["interrupted during the warm-up (after 1.5 s): nothing was measured"])
        #expect(!report.text.contains("after the warm-up"))
    }

    @Test func warmUpRequestsAnsweredAfterIt_areToldApart() {
        let report = Self.report(replies: 10) { result in
            result.warmupCompleted = 400
            result.warmupRepliesAfter = 250
        }
        #expect(report.text.contains("warm-up     150 replies in 1 s first, and 250 more to its requests after it; "
            + "none counted"), "\(report.text)")
    }

    @Test func aLongGapWithoutReplies_isReported_aShortOneIsNot() {
        #expect(Self.report(replies: 10) { $0.longestGap = .milliseconds(2000) }.text
            .contains("gap         longest without a reply while a request waited: 2.0 s"))
        #expect(!Self.report(replies: 10) { $0.longestGap = .milliseconds(40) }.text.contains("gap "))
    }

    /// A 3.0 s stall covering two whole seconds is "3.0 s", not "2 seconds" beside a 3.0 s gap.
    @Test func aStall_isSaidAsItsLongestGap_andTheWholeSecondsWithoutReplies() {
        let report = Self.report(replies: 10) { result in
            result.longestGap = .milliseconds(3010)
            result.stalledSeconds = 2
        }
        #expect(report.failures.contains(
            "tcp://127.0.0.1:5599 stopped answering for 3.0 s (2 whole seconds of the run without any reply)"),
            "\(report.failures)")
        #expect(report.text.contains("gap         longest without a reply while a request waited: 3.0 s"))
    }

    /// A server answering every request wrongly kept up with the rate all the same: it is not
    /// "behind" (replies counted, invalid ones too), and the sample checked says what the rest are
    /// likely to be (a walkthrough's run: 5,906 unchecked wrong replies counted as answered, BEHIND at 66%).
    @Test func wrongRepliesPastTheSample_areSaidOf_andDoNotMakeTheRunBehind() {
        var settings = LoadRunner.Settings(endpoint: "tcp://127.0.0.1:5599")
        settings.rate = 3000
        var result = LoadRunner.Result()
        for _ in 0..<5906 { result.histogram.record(microseconds: 200) }
        result.completed = 5906
        result.sent = 9000
        result.invalidReplies = 3094
        result.invalidByReason = [LookupCheck.Problem.wrongFuel.rawValue: 3094]
        result.contentChecked = 3094
        result.okReplies = 9000
        result.elapsed = .seconds(3)
        let query = LookupQuery(fuel: "B7", point: Coordinate(lat: 53.7, lng: -1.07), radiusMiles: 5, limit: 1)
        let report = LoadReport(settings: settings, plan: LoadPlan(target: .lookup, bodies: [[]],
                                                                   typeName: "lookup.cheapest", queries: [query]),
                                result: result)
        #expect(!report.fellBehind, "\(report.text)")
        #expect(report.text.contains("3094 of those checked (100%) were wrong: the replies not checked, counted as "
            + "answered, are likely wrong alike"), "\(report.text)")
        #expect(report.exitCode == 1)
    }

    /// A 2.5 s stall with a 1 s --timeout: every request answered, 1,511 of them late, and the server
    /// back at the rate at once. The run fails on its timeouts, but it was not "BEHIND at 78%" (QA).
    @Test func anOpenLoopWhoseLateRepliesCameAfterAStall_failsOnTimeouts_butIsNotBehind() {
        let report = Self.report(replies: 5489, rate: 1000) { result in
            result.sent = 7000
            result.timeouts = 1511
            result.lateReplies = 1511
            result.timeoutsInLatency = 1511
            result.elapsed = .seconds(7)
        }
        #expect(!report.fellBehind, "\(report.text)")
        #expect(!report.text.contains("BEHIND"), "\(report.text)")
        #expect(report.failed && report.exitCode == 1)
        let slow = Self.report(replies: 5489, rate: 1000) { result in
            result.sent = 7000
            result.timeouts = 1511
            result.timeoutsInLatency = 1511
            result.elapsed = .seconds(7)
        }
        #expect(slow.fellBehind, "never answered: the server did not keep up")
    }

    /// An open loop says how late its own sends went out: a generator paused for a second put
    /// that second into the latencies, and nothing said whose it was (load-tester walkthrough).
    @Test func anOpenLoop_saysHowLateItsSendsWent_andSuspectsItselfPast10ms() throws {
        let punctual = Self.report(replies: 2000, rate: 1000) { result in
            for _ in 0..<2000 { result.sendLag.record(microseconds: 20) }
        }
        #expect(punctual.text.contains("send lag    p50 0.020 ms"), "\(punctual.text)")
        #expect(!punctual.text.contains("may be this generator's"))
        let paused = Self.report(replies: 2000, rate: 1000) { result in
            for _ in 0..<1000 { result.sendLag.record(microseconds: 20) }
            for index in 0..<1000 { result.sendLag.record(microseconds: Double(index) * 1000) }
        }
        #expect(paused.text.contains("of a latency may be this generator's, not the server's"), "\(paused.text)")
        let json = try Self.json(paused)
        let lag = try #require(json["sendLagMicroseconds"] as? [String: Double])
        #expect((lag["max"] ?? 0) > 990_000 && (lag["p50"] ?? 0) < 1_000)
        #expect(try Self.json(Self.report(replies: 10))["sendLagMicroseconds"] == nil, "a closed loop has none")
    }

    /// A closed loop waits with a stalled server: its percentiles stay low, and only the max says so.
    @Test func aClosedLoopsStall_pointsToTheOpenLoop() {
        let stalled = Self.report(replies: 1000) { result in result.histogram.record(microseconds: 2_000_000) }
        #expect(stalled.text.contains("a closed loop waits with the server: a stall shows only in the max"),
                "\(stalled.text)")
        #expect(!Self.report(replies: 1000).text.contains("a closed loop waits with the server"))
    }

    @Test func aBusyMachine_isSaid() {
        var settings = LoadRunner.Settings(endpoint: "tcp://127.0.0.1:5599")
        settings.concurrency = 1
        var result = LoadRunner.Result()
        result.histogram.record(microseconds: 100)
        result.completed = 1
        result.elapsed = .seconds(1)
        let plan = LoadPlan(target: .lookup, bodies: [[]], typeName: "lookup.cheapest")
        let busy = LoadReport(settings: settings, plan: plan, result: result, run: LoadReport.RunInfo(loadAverage: 64))
        #expect(busy.text.contains("machine     load average 64.00 on \(busy.cores) cores before the run"), "\(busy.text)")
        let idle = LoadReport(settings: settings, plan: plan, result: result, run: LoadReport.RunInfo(loadAverage: 0.01))
        #expect(!idle.text.contains("machine "))
    }

    @Test func invalidReplies_sayWhy() {
        let report = Self.report(replies: 10) { result in
            result.invalidReplies = 3
            result.invalidByReason = [LookupCheck.Problem.wrongFuel.rawValue: 2, LoadSession.unreadable: 1]
        }
        #expect(report.text.contains("3 replies failed validation (a result for another fuel 2, "
            + "not a JSON reply envelope with an id 1)"), "\(report.text)")
        #expect(report.exitCode == 1)
    }

    /// The start line says its durations as a person would ("25 h" was "90000.0 seconds").
    @Test(arguments: [(Duration.milliseconds(500), "500 ms"), (.seconds(1), "1 s"), (.milliseconds(1500), "1.5 s"),
                      (.seconds(300), "5 min"), (.seconds(90_000), "25 h"), (.seconds(7 * 86_400), "168 h")])
    func durations_areSaidAsAPersonWouldWriteThem(duration: Duration, said: String) {
        #expect(LoadReport.format(duration: duration) == said)
    }

    /// An error code the contract does not have is said as such (it was only counted).
    @Test func anErrorCodeOutsideTheContract_isSaid() {
        let strange = Self.report(replies: 10) { $0.errorsByCode = ["bad_request": 2, "oops": 1, "failure:pricesUnavailable": 1] }
        #expect(strange.text.contains("errors      bad_request 2, failure:pricesUnavailable 1, oops 1 "
            + "(not an error code of the contract: oops)"), "\(strange.text)")
        let known = Self.report(replies: 10) { $0.errorsByCode = ["unavailable": 2] }
        #expect(known.text.contains("errors      unavailable 2\n"), "\(known.text)")
    }

    /// No reply in time from a server that answered the ping is not told "is it running there?":
    /// every reply late says so; none at all says the ping was answered.
    @Test func noRepliesInTime_sayWhatCame() {
        let late = Self.report(replies: 0) { $0.timeouts = 12; $0.lateReplies = 12; $0.timeoutsInLatency = 12 }
        #expect(late.failures.first == "no reply came in time: all 12 replies to measured requests from "
            + "tcp://127.0.0.1:5599 came later than the --timeout", "\(late.failures)")
        let none = Self.report(replies: 0, warmup: .zero) { $0.timeouts = 12; $0.timeoutsInLatency = 12 }
        #expect(none.failures.first?.hasPrefix("no replies came from tcp://127.0.0.1:5599 though it answered the ping")
                == true, "\(none.failures)")
    }

    /// Timeouts answered later are in the latencies at their real latency, and the text says so.
    @Test func timeoutsAnsweredLater_areSaidAtTheirRealLatency() {
        let report = Self.report(replies: 100) { $0.timeouts = 5; $0.lateReplies = 3; $0.timeoutsInLatency = 5 }
        #expect(report.text.contains("with the 5 requests that timed out, 3 answered later at their real latency, "
            + "the other 2 counted at the --timeout"), "\(report.text)")
    }
}

/// The content check's sample past 1,000 replies a second: one in 64, at random.
struct ReplySamplerTests {
    /// Every 64th reply fell in step with a server wrong on every other reply (QA: 59% of the
    /// checked replies wrong against ~50% of all); a random sample takes odd and even alike.
    @Test func theSample_isOneIn64_andTakesOddAndEvenRepliesAlike() {
        var sampler = ReplySampler(oneIn: 64)
        var taken = [0, 0]
        for reply in 0..<640_000 where sampler.take() { taken[reply % 2] += 1 }
        let total = taken[0] + taken[1]
        #expect(abs(total - 10_000) < 400, "\(total)")
        #expect(abs(Double(taken[0]) / Double(total) - 0.5) < 0.02, "\(taken)")
        var rhythm = ReplySampler(oneIn: 64)
        let every4th = (0..<64_000).filter { _ in rhythm.take() }.filter { $0 % 4 == 0 }.count
        #expect(every4th > 150 && every4th < 350, "\(every4th) of ~250 on every fourth reply")
    }
}
