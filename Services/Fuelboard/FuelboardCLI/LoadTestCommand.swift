import Foundation
import Messages
import ServiceKit
import Synchronization
import ZeroMQ

/// `fuelboard loadtest`: load the lookup or the whole assistant path and report what it did.
enum LoadTestCommand {
    /// The 1-minute load average from /proc/loadavg (nil where it cannot be read).
    static func loadAverage() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return nil }
        return text.split(separator: " ").first.flatMap { Double($0) }
    }

    static let spec = (
        usage: "[--target lookup|router] [--concurrency N | --rate R] [--connections N] [--threads N] "
            + "[--duration 10s | --requests N] [--json] [--svg FILE]",
        summary: """
            Loads fuel-lookup (lookup.cheapest or lookup.nearest) or intent-router (assistant.ask with
            generated utterances and users) and reports throughput, latency percentiles (p50, p90,
            p99, p99.9, max) from an HDR-style histogram, errors by code (for the router, answers that
            failed count as failure:<outcome>), the answers' outcomes, and replies that failed
            validation. Closed loop (N requests in flight) by default; --rate gives an open loop whose
            latency counts from each request's intended send time (it sleeps between sends on a timer
            and polls through the last 100 µs before each; --spin polls through the last millisecond,
            for the most punctual sends at the cost of a core from ~1,000 requests/s). Pings the
            endpoint first. Prints a progress line every second of the measured run (and, during a
            warm-up longer than a second, a line a second with the time left). Every reply's
            envelope is checked; a lookup's content too (the fuel asked, every station within the
            radius, prices 50-500p, the order, the limit): every reply up to 1,000 a second per
            generator thread, then one in 64 at random. Requests still unanswered when the run ends: those
            sent longer than --timeout before count as timed out; the younger ones are "unanswered",
            still in flight at the end (a closed loop always ends with up to N of them), and do not
            fail the run. The open loop reports the requests due, sent and answered, and counts the
            ones unanswered at the end (in flight or never sent) in its latencies at their age then,
            a lower bound. --requests N runs until N are answered, invalid or timed out (--duration,
            when given, still ends it). Ctrl-C ends the run early and reports what was measured.
            --json: every field is described in the README ("The --json report").
            Exit status: 0 passed; 1 a request failed, timed out or got an invalid reply, the p99
            was above --max-p99, the server stopped answering (a second without a reply while a
            request waited that then got none in time), --duration ended the run before --requests,
            or no reply came at all; 3 an open loop fell BEHIND the rate offered (nothing else
            failed); 69 the endpoint does not answer a ping, or --points stations was given and
            price-ingest gave no station positions (without the option they fall back to uniform
            points, said); 64 a bad option (checked before the run); 73 the --svg chart could not
            be written after the run (the report is printed); 130 Ctrl-C (143 SIGTERM).
            """,
        options: [
            OptionSpec("--target", value: "NAME", help: "lookup (default) or router"),
            OptionSpec("--type", value: "TYPE", help: "lookup only: cheapest (default) or nearest"),
            OptionSpec("--concurrency", value: "N", help: "requests in flight, closed loop (default 1)"),
            OptionSpec("--rate", value: "R", help: "requests per second, open loop (not with --concurrency)"),
            OptionSpec("--connections", value: "N",
                       help: "sockets to spread requests over, as N clients (default: one per thread; "
                           + "at most \(ParallelLoad.maxConnectionsPerThread) per thread)"),
            OptionSpec("--threads", value: "N",
                       help: "generator threads, each with its share of the load (default 1)"),
            OptionSpec("--spin", help: "open loop: poll through the last millisecond before each send"),
            OptionSpec("--keep-users", help: "router: leave the load test's users in location-cache (forgotten "
                           + "at --location after the run by default)"),
            OptionSpec("--duration", value: "DURATION", help: "measured time, more than 0 (default 10s; with "
                           + "--requests, none: the run ends with the last request)"),
            OptionSpec("--warmup", value: "DURATION", help: "unmeasured time first (default 1s)"),
            OptionSpec("--requests", value: "N", help: "stop after N measured requests"),
            OptionSpec("--points", value: "KIND", help: "stations (near loaded stations; the default, uniform when "
                           + "price-ingest has none) or uniform (UK box)"),
            OptionSpec("--fuel", value: "CODE", help: "lookup only: E10, E5, B7, SDV (or unleaded, diesel...) "
                           + "or mixed (default B7)"),
            OptionSpec("--radius", value: "MILES",
                       help: "lookup only: radius, at most \(Int(LookupRequest.maxRadiusMiles)) (default 5)"),
            OptionSpec("--seed", value: "S", help: "seed of the plan: query points, and the router's utterances and "
                           + "users (default 1)"),
            OptionSpec(AppNameSetting.flag, value: "NAME", help: "router only: the app name the asks say, as the "
                           + "router was given it [$\(AppNameSetting.environment), default \(AppNameSetting.defaultName)]"),
            OptionSpec("--no-check", help: "lookup only: do not check replies' content (the envelope still is), "
                           + "for a server that answers otherwise, such as a bare echo"),
            OptionSpec("--max-p99", value: "DURATION", help: "fail the run (exit 1) when its p99 is above this "
                           + "(10ms, say): a service level for scripts"),
            OptionSpec("--svg", value: "FILE", help: "SVG chart: latency over time, replies and failures per second, "
                           + "latency by percentile"),
        ]
    )

    /// The signal that ended the run early (0: none).
    private static let interruption = Atomic<Int32>(0)

    static func run(_ cli: CLIContext) throws -> Int32 {
        let options = try LoadTestOptions(cli.arguments, lookup: cli.topology.lookup, router: cli.topology.router,
                                          timeout: cli.timeout, environment: ProcessInfo.processInfo.environment)
        let settings = options.settings
        if let problem = DescriptorLimit.ensure(DescriptorLimit.needed(connections: settings.connections)) {
            throw ConfigurationError("--connections: \(problem)")
        }
        // A dead endpoint, or another service, fails at once, not after the warm-up and the whole
        // duration; each replica of a list is asked.
        let service = options.target == .router ? "intent-router" : "fuel-lookup"
        for replica in Endpoint.list(settings.endpoint) {
            guard let answered = cli.serviceAnswering(replica, within: .seconds(2)) else {
                let message = "no answer from \(replica) to a ping within 2 s: is \(service) running there?"
                CLIContext.printError(message)
                if cli.json { CLIContext.printJSONError("unavailable", message, status: ServiceMain.ExitCode.unavailable) }
                return ServiceMain.ExitCode.unavailable
            }
            // Another of FuelBoard's services is a wrong endpoint; a server of any other name (a
            // baseline such as bench's echo, a stand-in) is loaded as asked.
            if answered != service, ServiceSelection.shortNames.values.contains(answered) {
                throw ConfigurationError("\(replica) is \(answered), not \(service): give "
                    + (options.target == .router ? "--router" : "--lookup") + " the endpoint of \(service)")
            }
        }
        let stations = options.points == .stations ? try stationLocations(cli) : []
        var pointsUsed = options.points
        if options.points == .stations && stations.isEmpty {
            // Asked for by name, stations are not swapped for another workload (uniform points are
            // mostly "nothing in range"): a run compared with an earlier one would mislead.
            if cli.arguments.value("--points") != nil {
                let message = "--points stations: price-ingest at \(cli.topology.ingest) gave no station positions "
                    + "(is it running, with prices loaded? --ingest): use --points uniform to run without"
                CLIContext.printError(message)
                if cli.json { CLIContext.printJSONError("unavailable", message, status: ServiceMain.ExitCode.unavailable) }
                return ServiceMain.ExitCode.unavailable
            }
            CLIContext.printStatus("no stations loaded (or price-ingest unreachable): using uniform points")
            pointsUsed = .uniform
        }
        let queryPoints = LoadPlan.points(pointsUsed, stations: stations, count: 20_000, seed: options.seed)
        let plan = try LoadPlan.make(target: options.target, type: options.type, points: queryPoints, count: 20_000,
                                     seed: options.seed, radius: options.radius, fuel: options.fuel,
                                     appName: options.appName)
        CLIContext.printStatus("loading \(settings.endpoint) with \(options.type.rawValue): "
            + (settings.rate.map { "\(LoadReport.format(rate: $0)) req/s open loop" }
                ?? "\(settings.concurrency) in flight")
            + (settings.connections == 1 ? "" : " over \(settings.connections) connections")
            + (settings.threads == 1 ? "" : " from \(settings.threads) threads")
            + ", warm-up \(LoadReport.format(duration: settings.warmup)), then "
            + (settings.maxRequests.map { requests in
                settings.duration == LoadTestOptions.longestDuration ? LoadReport.count(requests, "request")
                    : "\(LoadReport.count(requests, "request")) (at most \(LoadReport.format(duration: settings.duration)))"
            } ?? LoadReport.format(duration: settings.duration))
            + "; Ctrl-C ends it early")
        // Ctrl-C ends the run and reports what was measured; a second one stops at once.
        ShutdownSignals.install { signal in
            interruption.store(signal, ordering: .relaxed)
            guard LoadRunner.stopRequested.exchange(true, ordering: .relaxed) else { return }
            if LoadUsers.pending.load(ordering: .relaxed) {
                CLIContext.printStatus("stopped at once: the load test's users not forgotten yet stay in "
                    + "location-cache until their TTL")
            }
            _exit(128 + signal)
        }
        // Several generator threads get as many ZeroMQ I/O threads, so one does not carry them all;
        // many connections a context that allows that many sockets.
        let sockets = DescriptorLimit.sockets(connections: settings.connections)
        let context = settings.threads == 1 && sockets <= 1000 ? cli.zmq
            : Context(ioThreads: Int32(settings.threads), maxSockets: Int32(sockets))
        var loadSettings = settings
        loadSettings.warmupProgress = { replies, left in
            CLIContext.printStatus(LoadReport.warmupLine(replies: replies, left: left))
        }
        let run = LoadReport.RunInfo(startedAt: Date(), fuel: options.target == .lookup ? options.fuel : nil,
                                     radiusMiles: options.target == .lookup ? options.radius : nil,
                                     pointsAsked: options.points.rawValue,
                                     pointsUsed: pointsUsed == options.points ? pointsUsed.rawValue
                                         : "uniform (no stations from price-ingest)",
                                     seed: options.seed, loadAverage: Self.loadAverage())
        let forgetsUsers = options.target == .router && !cli.arguments.has("--keep-users")
        LoadUsers.pending.store(forgetsUsers, ordering: .relaxed)
        let droppedBefore = ServerDrops.count(at: settings.endpoint, cli)
        let load = ParallelLoad(settings: loadSettings, plan: plan, context: context)
        let result = try load.run { second in CLIContext.printStatus(LoadReport.progressLine(second)) }
        var report = LoadReport(settings: settings, plan: plan, result: result, run: run)
        report.serverRepliesNotDelivered = ServerDrops.between(droppedBefore, ServerDrops.count(at: settings.endpoint, cli))
        if cli.json { try cli.printJSON(report) } else { print(report.text) }
        // Out now: a second Ctrl-C while the users are forgotten ends the process at once, and a
        // report still in stdout's buffer (stdout sent to a file) was lost with it.
        fflush(nil)
        var chartWritten = true
        if let path = options.chartPath {
            do {
                try LoadChart.write(LoadChart.svg(report), to: path)
                CLIContext.printStatus("chart written to \(path)")
            } catch {
                // The report is out; the run's verdict is in it. This status says the chart is missing.
                CLIContext.printError(error.description)
                chartWritten = false
            }
        }
        // After the report and the chart: forgetting takes a while, and they should not wait for it.
        if forgetsUsers {
            LoadUsers.forget(plan.users(of: result.sequencesSent), at: cli.topology.location,
                             router: settings.endpoint, cli)
        }
        if !chartWritten { return LoadReport.chartExitCode }
        // Interrupted, the run or the forgetting after it: 128 + the signal, as a shell reports it
        // (130 for Ctrl-C, 143 for SIGTERM).
        let signal = interruption.load(ordering: .relaxed)
        if report.interrupted || signal != 0 { return 128 + max(signal, 2) }
        return report.exitCode
    }

    /// Locations of every loaded station, from price-ingest's snapshot, a retailer at a time. A
    /// price-ingest that does not answer a ping within two seconds is not waited for (a large
    /// snapshot may take long). Says how far it has got every second, and what it read.
    static func stationLocations(_ cli: CLIContext) throws -> [Coordinate] {
        let endpoint = cli.topology.ingest
        guard cli.answers(endpoint, within: .seconds(2)) else {
            CLIContext.printStatus("price-ingest does not answer at \(endpoint)")
            return []
        }
        CLIContext.printStatus("reading station positions from price-ingest at \(endpoint)")
        guard let client = try? cli.client(endpoint, timeout: .seconds(30), retries: 0),
              let index = try? client.call(.ingestSnapshot, SnapshotRequest(), as: SnapshotReply.self) else { return [] }
        let retailers = index.retailers ?? []
        let started = ContinuousClock.now
        var nextProgress = started + .seconds(1)
        var locations: [Coordinate] = []
        var unread = 0
        for (done, entry) in retailers.enumerated() {
            if let reply = try? client.call(.ingestSnapshot, SnapshotRequest(retailer: entry.retailer),
                                            as: SnapshotReply.self) {
                locations += reply.state?.stations.compactMap(\.location) ?? []
            } else {
                unread += 1
            }
            if ContinuousClock.now >= nextProgress {
                CLIContext.printStatus(StationPositionsProgress.line(retailersRead: done + 1, of: retailers.count,
                                                                     positions: locations.count))
                nextProgress = ContinuousClock.now + .seconds(1)
            }
        }
        CLIContext.printStatus(StationPositionsProgress.summary(positions: locations.count, retailers: retailers.count,
                                                                unread: unread, took: ContinuousClock.now - started))
        return locations
    }
}

/// What `fuelboard loadtest` says while it reads the loaded stations' positions.
enum StationPositionsProgress {
    static func line(retailersRead: Int, of total: Int, positions: Int) -> String {
        "reading station positions: \(retailersRead) of \(total) retailers, \(positions) positions so far"
    }

    static func summary(positions: Int, retailers: Int, unread: Int, took: Duration) -> String {
        "read \(positions) station positions from \(retailers - unread) of \(retailers) retailers in "
            + LoadReport.format(duration: took)
            + (unread == 0 ? "" : " (\(unread) did not answer or could not be read: their stations are left out)")
    }
}
