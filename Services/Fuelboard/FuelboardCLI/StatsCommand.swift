import Foundation
import Messages
import ServiceKit

/// `fuelboard stats`: every reachable service's `sys.stats`, as JSON or a short summary. Exits 69
/// when any service asked did not answer (after printing what the others said), as `health` does.
enum StatsCommand {
    static let spec = (
        usage: "[--only NAMES]",
        summary: """
            Prints each service's sys.stats: requests, errors by code, handling latency and its own figures.
            p50/p99 are the service's own handling latency (from taking a request off its socket to its
            reply being ready), not network round trips. Exits 0 when every service asked answers, 69 otherwise;
            with --prometheus 0 all the same (fuelboard_up 0 says who is down, and a collector's
            "stats --prometheus > f.tmp && mv f.tmp f.prom" must not keep the last fuelboard_up 1).
            """,
        options: [
            OptionSpec("--only", value: "NAMES", help: "comma-separated services to ask (fuel-lookup or lookup...)"),
            OptionSpec("--prometheus", help: "print in the Prometheus text format (for a scrape or textfile collector)"),
        ]
    )

    static func run(_ cli: CLIContext) throws -> Int32 {
        let services = try ServiceSelection.chosen(cli.arguments, cli.topology)
        let prometheus = cli.arguments.has("--prometheus")
        let timeout = min(cli.timeout, .seconds(2)), context = cli.zmq
        let answers = ServiceSelection.each(services) { _, endpoint -> StatsBody? in
            guard let client = try? RequestClient(context: context, endpoint: endpoint, timeout: timeout, retries: 0)
            else { return nil }
            return try? client.call(.sysStats, EmptyBody(), as: StatsBody.self)
        }
        var all: [String: StatsBody] = [:]
        var unreachable: [(name: String, endpoint: String)] = []
        for ((service, endpoint), answer) in zip(services, answers) {
            let name = ServiceSelection.key(service, endpoint, in: services)
            // Another service at the endpoint is not this one: its figures were printed under this
            // one's name, exit 0 (operator QA).
            guard let stats = answer, stats.service == service else {
                unreachable.append((name, endpoint))
                let line = answer.map { "\(name): \(endpoint) answered as \($0.service), not \(service)" }
                    ?? "\(name): unreachable at \(endpoint)"
                // The Prometheus text on stdout holds metrics only: the service shows as `fuelboard_up 0`.
                if prometheus {
                    FileHandle.standardError.write(Data((line + "\n").utf8))
                } else if !cli.json {
                    print(line)
                }
                continue
            }
            all[name] = stats
            if !cli.json && !prometheus {
                print("\(name): " + summary(stats))
                if let line = StatsHighlights.line(service, stats.details) { print(line) }
            }
        }
        if prometheus {
            print(PrometheusText.render(all, unreachable: unreachable.map(\.name)), terminator: "")
        } else if cli.json {
            // Every service asked has an entry: those that did not answer say so.
            var entries = all.mapValues(StatsEntry.answered)
            for (name, endpoint) in unreachable { entries[name] = .unreachable(endpoint: endpoint) }
            try cli.printJSON(entries)
        } else if !all.isEmpty {
            print("(p50/p99: each service's own handling latency, from taking a request off its socket to its "
                + "reply being ready; not network round trips)")
        }
        // A service down is a metric in Prometheus output: the usual textfile-collector wrapper moves
        // the file into place only on success, so exiting 69 kept the old "up" for the whole outage (QA).
        if prometheus { return ServiceMain.ExitCode.success }
        return unreachable.isEmpty ? ServiceMain.ExitCode.success : ServiceMain.ExitCode.unavailable
    }

    /// "40,429 requests, errors none, handling p50 12µs p99 3.2ms (last 1m 30s: p50 11µs p99 1.1ms),
    /// up 2h 5m".
    static func summary(_ stats: StatsBody) -> String {
        let latency = stats.latencyMicroseconds
        let errors = stats.errorsByCode.sorted { $0.key < $1.key }.map { "\($0.key) \(StatsHighlights.count(Double($0.value)))" }
        var recent = ""
        if let last = stats.recentLatencyMicroseconds, let seconds = last.windowSeconds, stats.requests > 0 {
            recent = last.count == 0 ? " (none in the last \(uptime(seconds)))"
                : " (last \(uptime(seconds)): p50 \(micros(last.p50)) p99 \(micros(last.p99)))"
        }
        return StatsHighlights.plural(Double(stats.requests), "request") + ", errors "
            + (errors.isEmpty ? "none" : errors.joined(separator: ", "))
            + ", handling p50 \(micros(latency.p50)) p99 \(micros(latency.p99))\(recent), up \(uptime(stats.uptimeSeconds))"
    }

    /// 850 -> "850µs", 10240 -> "10.2ms".
    static func micros(_ value: Double) -> String {
        value < 1000 ? String(format: "%.0fµs", value) : String(format: "%.1fms", value / 1000)
    }

    /// 43 -> "43s", 7500 -> "2h 5m", 200000 -> "2d 7h".
    static func uptime(_ seconds: Double) -> String {
        let whole = Int(seconds)
        if whole < 60 { return "\(whole)s" }
        if whole < 3600 { return "\(whole / 60)m \(whole % 60)s" }
        if whole < 86_400 { return "\(whole / 3600)h \(whole % 3600 / 60)m" }
        return "\(whole / 86_400)d \(whole % 86_400 / 3600)h"
    }
}

/// One service in `fuelboard stats --json`: its `sys.stats`, or that it did not answer.
enum StatsEntry: Encodable {
    case answered(StatsBody)
    case unreachable(endpoint: String)

    private struct Unreachable: Encodable {
        let up = false
        let endpoint: String
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .answered(let stats): try container.encode(stats)
        case .unreachable(let endpoint): try container.encode(Unreachable(endpoint: endpoint))
        }
    }
}
