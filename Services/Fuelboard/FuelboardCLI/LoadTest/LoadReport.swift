import Foundation
import ServiceKit

/// The final report of a load test, for people (`text`, in LoadReportText.swift) and machines (`--json`).
struct LoadReport: Codable {
    struct Percentiles: Codable {
        var p50: Double
        var p90: Double
        var p99: Double
        var p999: Double
        var max: Double
        var mean: Double
    }

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
    /// Replies to requests sent while measuring (errors included).
    var requests: Int
    var throughput: Double
    /// Latency of the `requests` replies; all 0 when there were none.
    var latencyMicroseconds: Percentiles
    /// Failed requests by code: the service's error codes, and for assistant answers that failed
    /// `failure:<outcome>` (`failure:pricesUnavailable`).
    var errorsByCode: [String: Int]
    /// Assistant answers by outcome (`found`, `nothingInRange`...); absent for lookups.
    var outcomes: [String: Int]?
    var invalidReplies: Int
    /// Replies that came after their request had been counted as timed out (not invalid).
    var lateReplies: Int
    /// Measured seconds in which no reply came although requests were waiting: the server stopped.
    var stalledSeconds: Int
    /// Ctrl-C ended the run early: the figures cover the time until then.
    var interrupted: Bool
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
    var timeoutSeconds: Double
    /// Replies to requests sent during the warm-up, not counted in `requests`.
    var warmupRequests: Int
    var warmupSeconds: Double
    /// The load generator's own CPU time while it measured (all its threads), in seconds.
    var generatorCpuSeconds: Double?
    var perSecond: [LoadRunner.Second]
    /// (percentile, µs) pairs for the distribution chart.
    var distribution: [[Double]]

    init(settings: LoadRunner.Settings, plan: LoadPlan, result: LoadRunner.Result) {
        let histogram = result.histogram
        let seconds = Self.seconds(result.elapsed)
        target = plan.target.rawValue
        endpoint = settings.endpoint
        type = plan.typeName
        mode = settings.rate == nil ? "closed" : "open"
        concurrency = settings.rate == nil ? settings.concurrency : nil
        rate = settings.rate
        connections = settings.connections
        threads = settings.threads
        self.seconds = (seconds * 1000).rounded() / 1000
        requests = result.completed
        // Whole requests a second, but hundredths below 100 (an open loop at 0.5/s is not "1").
        let rateMeasured = seconds > 0 ? Double(result.completed) / seconds : 0
        throughput = rateMeasured < 100 ? (rateMeasured * 100).rounded() / 100 : rateMeasured.rounded()
        latencyMicroseconds = Percentiles(p50: histogram.quantile(0.5), p90: histogram.quantile(0.9),
                                          p99: histogram.quantile(0.99), p999: histogram.quantile(0.999),
                                          max: histogram.maxMicroseconds, mean: histogram.meanMicroseconds)
        errorsByCode = result.errorsByCode
        outcomes = plan.target == .router ? result.outcomes : nil
        invalidReplies = result.invalidReplies
        lateReplies = result.lateReplies
        stalledSeconds = result.stalledSeconds
        interrupted = result.interrupted
        requestsAsked = settings.maxRequests
        timeouts = result.timeouts
        unanswered = result.unanswered
        timeoutSeconds = Self.seconds(settings.timeout)
        warmupRequests = result.warmupCompleted
        warmupSeconds = Self.seconds(settings.warmup)
        generatorCpuSeconds = result.generatorCPU.map { (Self.seconds($0) * 1000).rounded() / 1000 }
        perSecond = result.seconds
        distribution = [0.0, 0.5, 0.75, 0.9, 0.95, 0.99, 0.995, 0.999, 0.9999, 1.0].map {
            [$0 * 100, histogram.quantile($0)]
        }
        failures = failureReasons
        failed = !failures.isEmpty
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
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
        var reasons = noReplies ? [noRepliesReason] : []
        let failedRequests = errorsByCode.values.reduce(0, +)
        if failedRequests > 0 { reasons.append("\(Self.count(failedRequests, "request")) failed") }
        if errorsByCode["unknown_type"] != nil {
            reasons.append("unknown_type: is \(endpoint) a \(service)? It does not know \(type)")
        }
        if invalidReplies > 0 { reasons.append("\(Self.count(invalidReplies, "reply", "replies")) failed validation") }
        if timeouts > 0 { reasons.append("\(Self.count(timeouts, "request")) timed out") }
        if let asked = requestsAsked, requests + timeouts < asked, !interrupted, !noReplies {
            reasons.append("stopped at --duration after \(requests + timeouts) of the \(asked) requests asked for")
        }
        if stalledSeconds > 0 {
            reasons.append("\(endpoint) stopped answering for \(Self.count(stalledSeconds, "second"))")
        }
        return reasons
    }

    /// "1 request", "3 requests".
    static func count(_ number: Int, _ one: String, _ many: String? = nil) -> String {
        "\(number) " + (number == 1 ? one : many ?? one + "s")
    }

    /// The open loop's replies per second under 90% of the rate offered: the server fell behind.
    var fellBehind: Bool {
        guard let rate, !interrupted, seconds >= 1 else { return false }
        return throughput < rate * 0.9
    }
}
