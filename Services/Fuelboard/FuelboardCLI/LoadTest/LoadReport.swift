import Foundation
import ServiceKit

/// The final report of a load test, for people (`text`) and machines (`--json`).
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
    var concurrency: Int
    var rate: Double?
    var seconds: Double
    var requests: Int
    var throughput: Double
    var latencyMicroseconds: Percentiles
    var errorsByCode: [String: Int]
    var invalidReplies: Int
    var timeouts: Int
    /// Replies to requests sent during the warm-up, not counted in `requests`.
    var warmupRequests: Int
    /// The load generator's own CPU time while it measured (all its threads), in seconds.
    var generatorCpuSeconds: Double?
    var perSecond: [LoadRunner.Second]
    /// (percentile, µs) pairs for the distribution chart.
    var distribution: [[Double]]

    init(settings: LoadRunner.Settings, plan: LoadPlan, result: LoadRunner.Result) {
        let histogram = result.histogram
        let seconds = Double(result.elapsed.components.seconds) + Double(result.elapsed.components.attoseconds) / 1e18
        target = plan.target.rawValue
        endpoint = settings.endpoint
        type = plan.typeName
        mode = settings.rate == nil ? "closed" : "open"
        concurrency = settings.concurrency
        rate = settings.rate
        self.seconds = (seconds * 1000).rounded() / 1000
        requests = result.completed
        throughput = seconds > 0 ? (Double(result.completed) / seconds).rounded() : 0
        latencyMicroseconds = Percentiles(p50: histogram.quantile(0.5), p90: histogram.quantile(0.9),
                                          p99: histogram.quantile(0.99), p999: histogram.quantile(0.999),
                                          max: histogram.maxMicroseconds, mean: histogram.meanMicroseconds)
        errorsByCode = result.errorsByCode
        invalidReplies = result.invalidReplies
        timeouts = result.timeouts
        warmupRequests = result.warmupCompleted
        generatorCpuSeconds = result.generatorCPU.map {
            ((Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18) * 1000).rounded() / 1000
        }
        perSecond = result.seconds
        distribution = [0.0, 0.5, 0.75, 0.9, 0.95, 0.99, 0.995, 0.999, 0.9999, 1.0].map { [$0 * 100, histogram.quantile($0)] }
    }

    /// The generator's CPU time over the run's: 1.0 is one core kept busy.
    var generatorCores: Double? {
        guard let generatorCpuSeconds, seconds > 0 else { return nil }
        return generatorCpuSeconds / seconds
    }

    /// Past this share of a core, the generator's own thread may be the bottleneck.
    static let busyGenerator = 0.9

    var failed: Bool { invalidReplies > 0 || timeouts > 0 || !errorsByCode.isEmpty }

    var text: String {
        let l = latencyMicroseconds
        func ms(_ micros: Double) -> String { String(format: "%.3f ms", micros / 1000) }
        var lines = [
            "target      \(target) \(type) at \(endpoint)",
            "mode        \(mode) loop" + (rate.map { String(format: ", %.0f req/s offered", $0) } ?? ", \(concurrency) in flight"),
            "requests    \(requests) in \(String(format: "%.2f", seconds)) s",
            "throughput  \(Int(throughput)) req/s",
            "latency     p50 \(ms(l.p50))  p90 \(ms(l.p90))  p99 \(ms(l.p99))  p99.9 \(ms(l.p999))  max \(ms(l.max))",
        ]
        let errors = errorsByCode.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        lines.append("errors      " + (errors.isEmpty ? "none" : errors.joined(separator: ", ")))
        lines.append("invalid     \(invalidReplies) replies failed validation, \(timeouts) timed out")
        if let cores = generatorCores {
            let warning = rate != nil ? ", with its polls between sends"
                : cores >= Self.busyGenerator ? ": near a whole core, it may be what limits the rate" : ""
            lines.append(String(format: "generator   %.2f of a core (its own CPU time over the run)", cores) + warning)
        }
        return lines.joined(separator: "\n")
    }
}
