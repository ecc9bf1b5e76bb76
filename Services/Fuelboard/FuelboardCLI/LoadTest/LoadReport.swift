import Foundation
import ServiceKit

/// The final report of a load test, for people (`text`, in LoadReportText.swift) and machines
/// (`--json`, every field described in the README's "The --json report"). Latencies are in µs,
/// times in seconds.
struct LoadReport: Codable {
    /// What shaped the run besides `LoadRunner.Settings`: for the report's `options`.
    struct RunInfo: Codable {
        /// When the run started (ISO 8601, UTC).
        var startedAt = Date()
        var fuel: String?
        var radiusMiles: Double?
        /// `--points` as asked, and the points used (uniform when no station could be read).
        var pointsAsked = "uniform"
        var pointsUsed = "uniform"
        var seed: UInt64 = 1
        /// The machine's 1-minute load average just before the run (nil where /proc says nothing).
        var loadAverage: Double?
    }

    /// The options a run was made with, as given or defaulted.
    struct Options: Codable {
        var target: String
        var type: String
        var fuel: String?
        var radiusMiles: Double?
        var points: String
        var pointsAsked: String
        var seed: UInt64
        var concurrency: Int?
        var rate: Double?
        var connections: Int
        var threads: Int
        var durationSeconds: Double?
        var requests: Int?
        var warmupSeconds: Double
        var timeoutSeconds: Double
        var spin: Bool
        /// `--max-p99` in µs (nil: not given).
        var maxP99Microseconds: Double?
        /// False with `--no-check` (lookup replies' content not checked).
        var checksContent: Bool = true
    }

    struct Percentiles: Codable {
        var p50: Double
        var p90: Double
        var p99: Double
        var p999: Double
        var max: Double
        var mean: Double
    }

    /// 2: this layout (perSecond p50/p99 null without replies, options, scheduled and sent...).
    var schemaVersion = Self.schemaVersion
    static let schemaVersion = 2
    var startedAt: String
    var options: Options
    var target: String
    var endpoint: String
    var type: String
    var mode: String
    /// Requests kept in flight (closed loop); absent in an open loop, which has no such number.
    var concurrency: Int?
    /// Requests per second offered (open loop); absent in a closed loop.
    var rate: Double?
    /// Sockets (connections) the requests were spread over.
    var connections: Int
    /// Generator threads that sent them.
    var threads: Int
    var seconds: Double
    /// Open loop: requests due on the schedule while measuring; closed loop: `sent`.
    var scheduled: Int
    /// Requests sent while measuring.
    var sent: Int
    /// Open loop: requests due that never went out before the end (the generator fell behind).
    var unsent: Int
    /// Replies to requests sent while measuring (errors included).
    var requests: Int
    var throughput: Double
    /// Latency of the `requests` replies and, in an open loop, of the `unansweredInLatency`
    /// requests at their age at the end; all 0 when there were none.
    var latencyMicroseconds: Percentiles
    /// Open loop: requests unanswered at the end (in flight or never sent), in the latencies at
    /// their age then (a lower bound).
    var unansweredInLatency: Int
    /// Requests that timed out, in the latencies at the timeout (a lower bound) or, for a reply that
    /// came too late, at its real latency.
    var timeoutsInLatency: Int
    /// Of the timeouts, requests lost when their connection dropped (timed out then, at their age).
    var timeoutsOnDisconnect: Int
    /// The open loop's server did not keep up with the rate offered (see `fellBehindNow`).
    var fellBehind = false
    /// Failed requests by code: the service's error codes, for assistant answers that failed
    /// `failure:<outcome>` (`failure:pricesUnavailable`), and for answers given without a backend
    /// `degraded:<services>` (`degraded:dialog-renderer`: the router's built-in English spoke).
    var errorsByCode: [String: Int]
    /// The server's message in the first error reply of each code (`unavailable`: "prices are not
    /// ready: ..."), so a run of errors says why without the server's log.
    var firstErrorMessages: [String: String]
    /// Assistant answers by outcome (`found`, `nothingInRange`...); absent for lookups.
    var outcomes: [String: Int]?
    var invalidReplies: Int
    /// Why replies failed validation, by reason.
    var invalidByReason: [String: Int]
    /// Lookup replies whose content was checked against their query, of `okReplies` (those with
    /// `"ok": true`: an error reply has no content to check); `contentCheck` says which. All three
    /// absent for the router.
    var contentChecked: Int?
    var okReplies: Int?
    var contentCheck: String?
    /// Replies that came after their request had been counted as timed out (not invalid).
    var lateReplies: Int
    /// Second replies to a request already answered (among the invalid replies, not in `replyRate`).
    var duplicateReplies: Int
    /// Measured seconds in which no reply came although requests were waiting: the server stopped.
    var stalledSeconds: Int
    /// The longest time with no reply while a request waited (per generator thread), in seconds.
    var longestGapSeconds: Double
    /// Open loop: how late the measured requests went out against the schedule, in µs (the
    /// generator's own delay, inside the latencies); absent in a closed loop.
    var sendLagMicroseconds: SendLag?
    /// The machine's 1-minute load average just before the run, and its cores: other work there
    /// shares the cores with the server and the generator.
    var loadAverageBefore: Double?
    var cores: Int

    struct SendLag: Codable {
        var p50: Double
        var p99: Double
        var max: Double
    }
    /// Ctrl-C ended the run early: the figures cover the time until then.
    var interrupted: Bool
    /// Ctrl-C came during the warm-up: nothing was measured (`warmupSeconds` is how long it ran).
    var interruptedDuringWarmup: Bool
    /// `--requests`: how many were asked for (answered or timed out by the end, unless the run
    /// stopped at `--duration` or was interrupted).
    var requestsAsked: Int?
    /// Why the run failed, in plain words (empty: it passed); `failed` says whether it did.
    var failures: [String] = []
    var failed = false
    /// Requests left unanswered longer than `timeoutSeconds`, during the run or when it ended.
    var timeouts: Int
    /// Requests still unanswered when the run ended but sent within `timeoutSeconds`: in flight,
    /// not failures (a closed loop always ends with up to `concurrency` of them).
    var unanswered: Int
    /// Replies the server counted as not delivered during the run (`ServerDrops`): among the
    /// unanswered and timed out here. Nil when it could not say.
    var serverRepliesNotDelivered: Int?
    var timeoutSeconds: Double
    /// Replies to requests sent during the warm-up, not counted in `requests`, and how many of
    /// them came only after it (an overloaded server still working through the warm-up's requests).
    var warmupRequests: Int
    var warmupRepliesAfterWarmup: Int
    var warmupSeconds: Double
    /// The load generator's own CPU time while it measured (all its threads), in seconds.
    var generatorCpuSeconds: Double?
    /// The generator's CPU time per measured reply, in µs.
    var generatorCpuMicrosecondsPerReply: Double?
    /// Each measured second: replies, errors, timeouts, invalid, p50/p99 in µs (null without replies).
    var perSecond: [LoadRunner.Second]
    /// [percentile, µs] pairs (0, 50, 75, 90 ... 99.99, 100 = max) for the distribution chart.
    var distribution: [[Double]]

    init(settings: LoadRunner.Settings, plan: LoadPlan, result: LoadRunner.Result, run: RunInfo = RunInfo()) {
        let histogram = result.histogram
        let seconds = Self.seconds(result.elapsed)
        startedAt = run.startedAt.formatted(.iso8601)
        options = Options(target: plan.target.rawValue, type: plan.typeName, fuel: run.fuel,
                          radiusMiles: run.radiusMiles, points: run.pointsUsed, pointsAsked: run.pointsAsked,
                          seed: run.seed, concurrency: settings.rate == nil ? settings.concurrency : nil,
                          rate: settings.rate, connections: settings.connections, threads: settings.threads,
                          durationSeconds: settings.duration == LoadTestOptions.longestDuration ? nil
                              : Self.seconds(settings.duration),
                          requests: settings.maxRequests, warmupSeconds: Self.seconds(settings.warmup),
                          timeoutSeconds: Self.seconds(settings.timeout), spin: settings.spin,
                          maxP99Microseconds: settings.maxP99.map { Self.micros(Self.seconds($0) * 1e6) },
                          checksContent: settings.checksContent)
        sent = result.sent
        unsent = result.unsent
        scheduled = result.sent + result.unsent
        unansweredInLatency = result.unansweredInLatency
        timeoutsInLatency = result.timeoutsInLatency
        timeoutsOnDisconnect = result.timeoutsOnDisconnect
        invalidByReason = result.invalidByReason
        contentChecked = plan.queries.isEmpty ? nil : result.contentChecked
        okReplies = plan.queries.isEmpty ? nil : result.okReplies
        contentCheck = plan.queries.isEmpty ? nil : !settings.checksContent ? "off (--no-check): envelopes only"
            : "lookups: fuel, radius, price \(Int(LookupCheck.plausiblePence.lowerBound))-"
                + "\(Int(LookupCheck.plausiblePence.upperBound))p, order and limit; every reply up to "
                + "\(LoadSession.checkAllUpTo) a second on each generator thread, then one in \(LoadSession.sampleEvery) at random"
        longestGapSeconds = Self.rounded(Self.seconds(result.longestGap), 3)
        sendLagMicroseconds = settings.rate == nil || result.sendLag.count == 0 ? nil
            : SendLag(p50: Self.micros(result.sendLag.quantile(0.5)), p99: Self.micros(result.sendLag.quantile(0.99)),
                      max: Self.micros(result.sendLag.maxMicroseconds))
        loadAverageBefore = run.loadAverage.map { Self.rounded($0, 2) }
        cores = ProcessInfo.processInfo.activeProcessorCount
        interruptedDuringWarmup = result.interruptedInWarmupAfter != nil
        warmupRepliesAfterWarmup = result.warmupRepliesAfter
        target = plan.target.rawValue
        endpoint = settings.endpoint
        type = plan.typeName
        mode = settings.rate == nil ? "closed" : "open"
        concurrency = settings.rate == nil ? settings.concurrency : nil
        rate = settings.rate
        connections = settings.connections
        threads = settings.threads
        // To the microsecond: to the millisecond, a run of 5 requests in 0.3 ms had 0 seconds
        // beside a throughput of 16,924/s (QA).
        self.seconds = (seconds * 1e6).rounded() / 1e6
        requests = result.completed
        // Whole requests a second, but hundredths below 100 (an open loop at 0.5/s is not "1").
        let rateMeasured = seconds > 0 ? Double(result.completed) / seconds : 0
        throughput = rateMeasured < 100 ? (rateMeasured * 100).rounded() / 100 : rateMeasured.rounded()
        latencyMicroseconds = Percentiles(p50: Self.micros(histogram.quantile(0.5)),
                                          p90: Self.micros(histogram.quantile(0.9)),
                                          p99: Self.micros(histogram.quantile(0.99)),
                                          p999: Self.micros(histogram.quantile(0.999)),
                                          max: Self.micros(histogram.maxMicroseconds),
                                          mean: Self.micros(histogram.meanMicroseconds))
        errorsByCode = result.errorsByCode
        firstErrorMessages = result.firstErrorMessages
        outcomes = plan.target == .router ? result.outcomes : nil
        invalidReplies = result.invalidReplies
        lateReplies = result.lateReplies
        duplicateReplies = result.duplicateReplies
        stalledSeconds = result.stalledSeconds
        interrupted = result.interrupted
        requestsAsked = settings.maxRequests
        timeouts = result.timeouts
        unanswered = result.unanswered
        timeoutSeconds = Self.seconds(settings.timeout)
        warmupRequests = result.warmupCompleted
        warmupSeconds = Self.seconds(result.interruptedInWarmupAfter.map { min($0, settings.warmup) } ?? settings.warmup)
        warmupSeconds = Self.rounded(warmupSeconds, 3)
        generatorCpuSeconds = result.generatorCPU.map { Self.rounded(Self.seconds($0), 3) }
        generatorCpuMicrosecondsPerReply = result.generatorCPU.flatMap { cpu in
            result.completed > 0 ? Self.rounded(Self.seconds(cpu) * 1e6 / Double(result.completed), 3) : nil
        }
        perSecond = result.seconds
        distribution = [0.0, 0.5, 0.75, 0.9, 0.95, 0.99, 0.995, 0.999, 0.9999, 1.0].map {
            [Self.rounded($0 * 100, 2), Self.micros(histogram.quantile($0))]
        }
        // Percentile 0 is the fastest reply: an open loop's requests unanswered at the end are in
        // the latencies at their age then, and one sent just before the end set it near 0 (below
        // any round trip), while the median may be theirs too (not above it). Without any reply,
        // the median.
        if distribution.count > 1 {
            distribution[0][1] = min(result.fastestReply.map(Self.micros) ?? .infinity, distribution[1][1])
        }
        fellBehind = fellBehindNow
        failures = failureReasons
        failed = !failures.isEmpty
    }

    /// µs to three decimals (a nanosecond): no float noise in the JSON.
    static func micros(_ value: Double) -> Double { rounded(value, 3) }

    static func rounded(_ value: Double, _ decimals: Int) -> Double {
        let scale = pow(10, Double(decimals))
        return (value * scale).rounded() / scale
    }

    static func seconds(_ duration: Duration) -> Double {
        duration.inSeconds
    }

    /// The service behind the target, as its binary is named.
    var service: String { target == LoadPlan.Target.router.rawValue ? "intent-router" : "fuel-lookup" }

    /// The generator's CPU time over the run's: 1.0 is one core kept busy.
    var generatorCores: Double? {
        guard let generatorCpuSeconds, seconds > 0 else { return nil }
        return generatorCpuSeconds / seconds
    }

    /// Past this share of a core, the generator's own thread may be the bottleneck.
    static let busyGenerator = 0.9

    /// No reply was measured: the endpoint is silent (or answered only in the warm-up, or only
    /// with replies that failed validation). Such a run is a failure, whatever else it counted.
    var noReplies: Bool { requests == 0 }

    /// Why the run failed: a request failed, timed out or got an invalid reply, the server stopped
    /// answering for a second or more, or nothing answered at all. Requests merely in flight at
    /// the end (`unanswered`) do not fail a run.
    var failureReasons: [String] {
        if interruptedDuringWarmup {
            return ["interrupted during the warm-up (after \(Self.format(seconds: warmupSeconds))): nothing was measured"]
        }
        var reasons = noReplies ? [noRepliesReason] : []
        let failedRequests = errorsByCode.values.reduce(0, +)
        if failedRequests > 0 { reasons.append("\(Self.count(failedRequests, "request")) failed") }
        let without = Set(errorsByCode.keys.filter { $0.hasPrefix(Self.degradedPrefix) }
            .flatMap { $0.dropFirst(Self.degradedPrefix.count).split(separator: "+").map(String.init) }).sorted()
        if !without.isEmpty {
            reasons.append("answers given without \(without.joined(separator: " and ")) (down or late: see "
                + "fuelboard stats --only router): the whole path was not measured")
        }
        let misunderstood = (errorsByCode["failure:notUnderstood"] ?? 0) + (errorsByCode["failure:appNotNamed"] ?? 0)
        if misunderstood > 0 {
            // The asks are generated well-formed: unheard, they name another app than the router's.
            reasons.append("the router did not understand \(Self.count(misunderstood, "ask")): does it answer to "
                + "the app name the asks use? (--app-name, $\(AppNameSetting.environment))")
        }
        if errorsByCode["unknown_type"] != nil {
            reasons.append("unknown_type: is \(service) what answers at \(endpoint)? It does not know \(type)")
        }
        if let limit = options.maxP99Microseconds, !noReplies, latencyMicroseconds.p99 > limit {
            reasons.append(String(format: "p99 %.3f ms is above --max-p99 %.3f ms", latencyMicroseconds.p99 / 1000,
                                  limit / 1000))
        }
        if invalidReplies > 0 { reasons.append("\(Self.count(invalidReplies, "reply", "replies")) failed validation") }
        if timeouts > 0 {
            reasons.append("\(Self.count(timeouts, "request")) timed out" + (timeoutsOnDisconnect == 0 ? ""
                : " (\(timeoutsOnDisconnect) lost when their connection dropped: the server closed it)"))
        }
        if let asked = requestsAsked, requests + timeouts < asked, !interrupted, !noReplies {
            reasons.append("stopped at --duration after \(requests + timeouts) of the \(asked) requests asked for")
        }
        if stalledSeconds > 0 {
            // The longest gap is the length of the stall; whole seconds without a reply are fewer
            // (a 3.0 s gap may cover two of them), and the two said apart read as a contradiction.
            let gap = max(longestGapSeconds, Double(stalledSeconds))
            reasons.append(String(format: "%@ stopped answering for %.1f s (%@ of the run without any reply)",
                                  endpoint, gap, Self.count(stalledSeconds, "whole second")))
        }
        return reasons
    }

    /// The server had stopped answering when the run ended: stalled seconds, and in the last one no
    /// reply while requests waited (a short last second without replies at a low rate is not that).
    var stalledAtTheEnd: Bool {
        guard stalledSeconds > 0, let last = perSecond.last, last.waited == true else { return false }
        return last.requests + last.errors + last.invalid == 0
    }

    /// "1 request", "3 requests".
    static func count(_ number: Int, _ one: String, _ many: String? = nil) -> String {
        "\(number) " + (number == 1 ? one : many ?? one + "s")
    }

    /// The open loop's replies per second under 90% of the rate offered, or more than a tenth of
    /// the requests due unanswered at the end (never sent or still in flight): the server (or
    /// the generator) fell behind the schedule. The rate offered is what the schedule held: 1.5
    /// a second for one second is one request, and one reply keeps up with it.
    var fellBehindNow: Bool {
        guard let rate, !interrupted, seconds >= 1 else { return false }
        let offered = scheduled > 0 ? min(rate, Double(scheduled) / seconds) : rate
        return replyRate < offered * 0.9 || Double(unansweredInLatency) > Double(max(scheduled, 1)) * 0.1
    }

    /// The timeouts in the latencies at their real latency (their reply came later), and those at
    /// the timeout itself (a lower bound of theirs).
    var timeoutsAtRealLatency: Int { min(lateReplies, timeoutsInLatency - timeoutsOnDisconnect) }
    var timeoutsAtTimeout: Int { timeoutsInLatency - timeoutsOnDisconnect - timeoutsAtRealLatency }

    /// Every measured reply a second, invalid and late ones too: a server answering wrongly, or
    /// late after a stall it recovered from, kept up all the same (its failures are said apart;
    /// a 2.5 s stall with a 1 s timeout was "BEHIND at 78%" though every request was answered). A
    /// second reply to one request answers nothing more.
    var replyRate: Double {
        seconds > 0 ? Double(requests + invalidReplies - duplicateReplies + lateReplies) / seconds : 0
    }

    /// The exit status for this report: 1 failed, 3 behind the rate offered (and nothing
    /// failed), else 0. Interruptions and chart errors are the command's.
    var exitCode: Int32 {
        if failed { return ServiceMain.ExitCode.failure }
        return fellBehind ? Self.behindExitCode : ServiceMain.ExitCode.success
    }

    /// Starts the error code of an answer given without a backend (`errorsByCode`).
    static let degradedPrefix = "degraded:"

    /// An open loop the server could not keep up with (`fellBehind`).
    static let behindExitCode: Int32 = 3
    /// The chart could not be written after the run (EX_CANTCREAT); the report was printed.
    static let chartExitCode: Int32 = 73
}
