import Foundation

/// What a person reads: the final report and the progress line printed every second.
extension LoadReport {
    var text: String {
        let l = latencyMicroseconds
        func ms(_ micros: Double) -> String { String(format: "%.3f ms", micros / 1000) }
        var lines = [
            "target      \(service) (\(type)) at \(endpoint)",
            "mode        \(mode) loop" + (rate.map { String(format: ", %.0f req/s offered", $0) } ?? "")
                + (concurrency.map { ", \($0) in flight" } ?? "")
                + (connections == 1 ? " on 1 connection" : " over \(connections) connections")
                + (threads == 1 ? "" : " from \(threads) generator threads"),
            "requests    \(requests) replies in \(String(format: "%.2f", seconds)) s",
            warmupSeconds > 0
                ? "warm-up     \(warmupRequests) replies in \(Self.format(seconds: warmupSeconds)) first, not counted"
                : "warm-up     none",
            "throughput  \(Int(throughput)) req/s",
            "latency     " + (noReplies ? "no replies"
                : "p50 \(ms(l.p50))  p90 \(ms(l.p90))  p99 \(ms(l.p99))  p99.9 \(ms(l.p999))  max \(ms(l.max))"),
        ]
        let errors = errorsByCode.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        lines.append("errors      " + (errors.isEmpty ? "none" : errors.joined(separator: ", ")))
        lines.append("invalid     \(invalidReplies) replies failed validation, \(timeouts) timed out "
            + "(no reply within the \(Self.format(seconds: timeoutSeconds)) --timeout)")
        lines.append("unanswered  \(unanswered) still in flight at the end, sent within the timeout: "
            + (concurrency.map { "normal up to \($0) in a closed loop, " } ?? "") + "not failures")
        if let cores = generatorCores {
            var line = String(format: "generator   %.2f of a core (its own CPU time over the run)", cores)
            if rate != nil {
                line += ", including time spent waiting:\n"
                    + "            the open loop keeps polling between sends to send each request on time"
            } else if cores >= Self.busyGenerator * Double(threads) {
                line += threads == 1 ? ": near a whole core, it may be what limits the rate"
                    : ": near a whole core per thread, it may be what limits the rate"
            }
            lines.append(line)
        }
        if noReplies {
            lines.append("FAILED      " + noRepliesReason)
        }
        return lines.joined(separator: "\n")
    }

    /// Why a run without a measured reply failed, in plain words.
    var noRepliesReason: String {
        if invalidReplies > 0 {
            return "no valid replies: every reply from \(endpoint) failed validation"
        }
        if warmupRequests > 0 {
            return "no replies came from \(endpoint) after the warm-up (\(warmupRequests) came during it)"
        }
        return "no replies came from the endpoint \(endpoint): is \(service) running there?"
    }

    /// The line printed after each measured second; timeouts appear when there were some.
    static func progressLine(_ second: LoadRunner.Second) -> String {
        var line = String(format: "[%3ds] %6d req/s  errors %d", second.second, second.requests, second.errors)
        if second.timeouts > 0 { line += "  timeouts \(second.timeouts)" }
        line += second.requests == 0 ? "  no replies"
            : String(format: "  p50 %.3f ms  p99 %.3f ms", second.p50 / 1000, second.p99 / 1000)
        return line
    }

    /// 5 -> "5 s", 0.3 -> "300 ms".
    static func format(seconds: Double) -> String {
        seconds > 0 && seconds < 1 ? String(format: "%g ms", (seconds * 1000).rounded())
            : String(format: "%g s", seconds)
    }
}
