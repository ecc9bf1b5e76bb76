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
            reply being ready), not network round trips. Exits 0 when every service asked answers, 69 otherwise.
            """,
        options: [
            OptionSpec("--only", value: "NAMES", help: "comma-separated services to ask"),
            OptionSpec("--prometheus", help: "print in the Prometheus text format (for a scrape or textfile collector)"),
        ]
    )

    static func run(_ cli: CLIContext) throws -> Int32 {
        var services = HealthCommand.services(cli.topology)
        if let only = cli.arguments.value("--only") {
            let names = Set(only.split(separator: ",").map { String($0) })
            let unknown = names.subtracting(services.map(\.0))
            guard unknown.isEmpty else { throw ConfigurationError("--only: unknown service(s) \(unknown.sorted())") }
            services = services.filter { names.contains($0.0) }
        }
        let prometheus = cli.arguments.has("--prometheus")
        var all: [String: StatsBody] = [:]
        var unreachable: [String] = []
        for (name, endpoint) in services {
            let client = try cli.client(endpoint, timeout: min(cli.timeout, .seconds(2)), retries: 0)
            guard let stats = try? client.call(.sysStats, EmptyBody(), as: StatsBody.self) else {
                unreachable.append(name)
                let line = "\(name): unreachable at \(endpoint)"
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
                let latency = stats.latencyMicroseconds
                let errors = stats.errorsByCode.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                print("\(name): \(stats.requests) requests, errors [\(errors.joined(separator: " "))], handling "
                    + String(format: "p50 %.0fµs p99 %.0fµs, up %.0fs", latency.p50, latency.p99, stats.uptimeSeconds))
                if let line = StatsHighlights.line(name, stats.details) { print(line) }
            }
        }
        if prometheus {
            print(PrometheusText.render(all, unreachable: unreachable), terminator: "")
        } else if cli.json {
            try cli.printJSON(all)
        } else if !all.isEmpty {
            print("(p50/p99: each service's own handling latency, from taking a request off its socket to its "
                + "reply being ready; not network round trips)")
        }
        return unreachable.isEmpty ? ServiceMain.ExitCode.success : ServiceMain.ExitCode.unavailable
    }
}
