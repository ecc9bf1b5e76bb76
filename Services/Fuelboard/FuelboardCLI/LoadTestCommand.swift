import Foundation
import Messages
import ServiceKit

/// `fuelboard loadtest`: load the lookup or the whole assistant path and report what it did.
enum LoadTestCommand {
    static let spec = (
        usage: "[--target lookup|router] [--concurrency N | --rate R] [--duration 10s] [--json] [--svg FILE]",
        summary: """
            Loads fuel-lookup (lookup.cheapest or lookup.nearest) or intent-router (assistant.ask with
            generated utterances and users) and reports throughput, latency percentiles (p50, p90,
            p99, p99.9, max) from an HDR-style histogram, errors by code and replies that failed
            validation. Closed loop (N requests in flight) by default; --rate gives an open loop whose
            latency counts from each request's intended send time (to send on time, it keeps a core
            busy through gaps under a millisecond, i.e. above ~1,000 requests/s). Prints a progress
            line every second. Exits 1 when any request failed, timed out or got an invalid reply.
            """,
        options: [
            OptionSpec("--target", value: "NAME", help: "lookup (default) or router"),
            OptionSpec("--type", value: "TYPE", help: "lookup only: cheapest (default) or nearest"),
            OptionSpec("--concurrency", value: "N", help: "requests in flight, closed loop (default 1)"),
            OptionSpec("--rate", value: "R", help: "requests per second, open loop"),
            OptionSpec("--duration", value: "DURATION", help: "measured time (default 10s)"),
            OptionSpec("--warmup", value: "DURATION", help: "unmeasured time first (default 1s)"),
            OptionSpec("--requests", value: "N", help: "stop after N measured requests"),
            OptionSpec("--points", value: "KIND", help: "stations (near loaded stations, default) or uniform (UK box)"),
            OptionSpec("--fuel", value: "CODE", help: "lookup fuel: E10, E5, B7, SDV or mixed (default B7)"),
            OptionSpec("--radius", value: "MILES", help: "lookup radius (default 5)"),
            OptionSpec("--seed", value: "S", help: "seed for query points (default 1)"),
            OptionSpec("--svg", value: "FILE", help: "draw latency over time and its distribution as SVG"),
        ]
    )

    static func run(_ cli: CLIContext) throws -> Int32 {
        let arguments = cli.arguments
        guard let target = LoadPlan.Target(rawValue: arguments.value("--target") ?? "lookup") else {
            throw ConfigurationError("--target: expected lookup or router")
        }
        guard let points = LoadPlan.Points(rawValue: arguments.value("--points") ?? "stations") else {
            throw ConfigurationError("--points: expected stations or uniform")
        }
        let type: MessageType
        switch (target, arguments.value("--type") ?? "cheapest") {
        case (.router, _): type = .assistantAsk
        case (.lookup, "cheapest"): type = .lookupCheapest
        case (.lookup, "nearest"): type = .lookupNearest
        default: throw ConfigurationError("--type: expected cheapest or nearest")
        }
        func number(_ name: String) throws -> Double? {
            guard let text = arguments.value(name) else { return nil }
            guard let value = Double(text), value.isFinite, value > 0 else {
                throw ConfigurationError("\(name): expected a positive number, got '\(text)'")
            }
            return value
        }
        func duration(_ name: String, _ fallback: Duration) throws -> Duration {
            guard let text = arguments.value(name) else { return fallback }
            guard let value = ServiceMain.parseDuration(text) else { throw ConfigurationError("\(name): bad duration '\(text)'") }
            return value
        }
        let endpoint = target == .lookup ? cli.topology.lookup : cli.topology.router
        var settings = LoadRunner.Settings(endpoint: endpoint)
        settings.concurrency = Int(try number("--concurrency") ?? 1)
        settings.rate = try number("--rate")
        settings.duration = try duration("--duration", .seconds(10))
        settings.warmup = try duration("--warmup", .seconds(1))
        settings.maxRequests = try number("--requests").map { Int($0) }
        settings.timeout = cli.timeout
        let seed = UInt64(try number("--seed") ?? 1)
        let fuel = (arguments.value("--fuel") ?? "B7").uppercased() == "MIXED" ? "mixed" : (arguments.value("--fuel") ?? "B7")

        let stations = points == .stations ? try stationLocations(cli) : []
        if points == .stations && stations.isEmpty {
            CLIContext.printStatus("no stations loaded (or price-ingest unreachable): using uniform points")
        }
        let queryPoints = LoadPlan.points(points, stations: stations, count: 20_000, seed: seed)
        let plan = try LoadPlan.make(target: target, type: type, points: queryPoints, count: 20_000, seed: seed,
                                     radius: try number("--radius") ?? 5, fuel: fuel)
        CLIContext.printStatus("loading \(endpoint) with \(type.rawValue): "
            + (settings.rate.map { "\(Int($0)) req/s open loop" } ?? "\(settings.concurrency) in flight")
            + ", warm-up \(settings.warmup), then \(settings.duration)")
        let runner = LoadRunner(settings: settings, plan: plan, context: cli.zmq)
        let result = try runner.run { second in
            CLIContext.printStatus(String(format: "[%3ds] %6d req/s  errors %d  p50 %.3f ms  p99 %.3f ms",
                                          second.second, second.requests, second.errors, second.p50 / 1000, second.p99 / 1000))
        }
        let report = LoadReport(settings: settings, plan: plan, result: result)
        if cli.json { try cli.printJSON(report) } else { print(report.text) }
        if let path = arguments.value("--svg") {
            try LoadChart.svg(report).write(toFile: path, atomically: true, encoding: .utf8)
            CLIContext.printStatus("chart written to \(path)")
        }
        return report.failed ? ServiceMain.ExitCode.failure : ServiceMain.ExitCode.success
    }

    /// Locations of every loaded station, from price-ingest's snapshot. A price-ingest that does
    /// not answer a ping within two seconds is not waited for (a large snapshot may take long).
    static func stationLocations(_ cli: CLIContext) throws -> [Coordinate] {
        let endpoint = cli.topology.ingest
        // Any reply will do: only a silent endpoint is given up on.
        guard let probe = try? cli.client(endpoint, timeout: .seconds(2), retries: 0),
              (try? probe.callRaw(MessageType.sysPing.rawValue, EmptyBody())) != nil else {
            CLIContext.printStatus("price-ingest does not answer at \(endpoint)")
            return []
        }
        CLIContext.printStatus("reading station positions from price-ingest at \(endpoint)")
        guard let client = try? cli.client(endpoint, timeout: .seconds(30), retries: 0),
              let index = try? client.call(.ingestSnapshot, SnapshotRequest(), as: SnapshotReply.self) else { return [] }
        var locations: [Coordinate] = []
        for entry in index.retailers ?? [] {
            guard let reply = try? client.call(.ingestSnapshot, SnapshotRequest(retailer: entry.retailer),
                                               as: SnapshotReply.self) else { continue }
            locations += reply.state?.stations.compactMap(\.location) ?? []
        }
        return locations
    }
}
