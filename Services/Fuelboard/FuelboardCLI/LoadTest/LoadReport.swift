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
        perSecond = result.seconds
        distribution = [0.0, 0.5, 0.75, 0.9, 0.95, 0.99, 0.995, 0.999, 0.9999, 1.0].map { [$0 * 100, histogram.quantile($0)] }
    }

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
        return lines.joined(separator: "\n")
    }
}
