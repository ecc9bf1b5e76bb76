import Foundation
import Messages
import ServiceKit
import ZeroMQ

/// `fuelboard health`: pings every service of the topology and says which answer, and which of
/// those cannot serve yet (a fuel-lookup without price-ingest's snapshot); exit 0 when all answer
/// (a liveness check), with `--ready` only when all can also serve (a readiness check).
enum HealthCommand {
    static let spec = (
        usage: "[--only NAMES] [--ready]",
        summary: """
            Pings every service in the topology (sys.ping) and says which answer and which are down, and
            which answer but are NOT READY (fuel-lookup before it holds price-ingest's snapshot: it answers
            lookups 'unavailable'). Exits 0 when every checked service answers, 69 otherwise; with --ready,
            69 also when one is not ready (use it as a readiness check, without it as a liveness check).
            """,
        options: [
            OptionSpec("--only", value: "NAMES", help: "comma-separated services to check (price-ingest,fuel-lookup or ingest,lookup)"),
            OptionSpec("--ready", help: "exit 69 also when a service answers but cannot serve yet"),
        ]
    )

    struct ServiceHealth: Codable {
        let service: String
        let endpoint: String
        let up: Bool
        let version: String?
        let milliseconds: Double?
        let error: String?
        /// Whether it can serve: false for a fuel-lookup without price-ingest's snapshot.
        let ready: Bool
        /// Why it cannot serve yet, when it answers but is not ready.
        let notReady: String?
    }

    static func run(_ cli: CLIContext) throws -> Int32 {
        let checked = try ServiceSelection.chosen(cli.arguments, cli.topology)
        let timeout = min(cli.timeout, .seconds(2)), context = cli.zmq
        var results = ServiceSelection.each(checked) { name, endpoint -> ServiceHealth in
            let started = ContinuousClock.now
            do {
                let client = try RequestClient(context: context, endpoint: endpoint, timeout: timeout, retries: 0)
                let ping = try client.call(.sysPing, EmptyBody(), as: PingBody.self)
                let elapsed = ContinuousClock.now - started
                let ms = elapsed.inSeconds * 1000
                let up = ping.service == name
                let notReady = up ? try notReadyReason(name, client) : nil
                return ServiceHealth(service: name, endpoint: endpoint, up: up,
                                     version: ping.version, milliseconds: (ms * 10).rounded() / 10,
                                     error: up ? nil : "answered as \(ping.service)",
                                     ready: up && notReady == nil, notReady: notReady)
            } catch {
                return ServiceHealth(service: name, endpoint: endpoint, up: false, version: nil, milliseconds: nil,
                                     error: ServiceError.from(error).message, ready: false, notReady: nil)
            }
        }
        results = appNamesAgree(results, context: context, timeout: timeout)
        if cli.json {
            try cli.printJSON(results)
        } else {
            var table = TextTable(headers: ["service", "endpoint", "state", "ms"], rightAligned: [3])
            for result in results {
                table.add([result.service, result.endpoint, result.up ? (result.ready ? "up" : "up, NOT READY") : "DOWN",
                           result.milliseconds.map { String($0) } ?? "-"])
            }
            print(table.rendered, terminator: "")
            let name = { (result: ServiceHealth) in ServiceSelection.key(result.service, result.endpoint, in: checked) }
            let down = results.filter { !$0.up }.map(name)
            let kind = checked.count == Set(checked.map(\.name)).count ? "service" : "endpoint"
            let all = results.count == 1 ? "The \(kind) answers." : "All \(results.count) \(kind)s answer."
            // Why, when it says: another service at the endpoint (that was in --json only).
            let downWithWhy = results.filter { !$0.up }.map { result in
                name(result) + (result.error.map { $0.hasPrefix("answered as") ? " (\($0))" : "" } ?? "")
            }
            print(down.isEmpty ? all : "Down: \(downWithWhy.joined(separator: ", ")).")
            let notReady = results.filter { $0.up && !$0.ready }.map { "\(name($0)) (\($0.notReady ?? "not ready"))" }
            if !notReady.isEmpty { print("Not ready: \(notReady.joined(separator: ", ")).") }
        }
        let failed = cli.arguments.has("--ready") ? results.contains { !$0.ready } : results.contains { !$0.up }
        return failed ? ServiceMain.ExitCode.unavailable : ServiceMain.ExitCode.success
    }

    /// dialog-renderer NOT READY when it tells users to say another app name than the one
    /// intent-router hears: every "start with my name: Ask FuelBoard ..." then led to a phrase the
    /// router refused (operator QA). Checked when both answer, one of each.
    private static func appNamesAgree(_ results: [ServiceHealth], context: Context, timeout: Duration)
        -> [ServiceHealth]
    {
        guard let router = results.first(where: { $0.service == "intent-router" && $0.up }),
              let dialog = results.firstIndex(where: { $0.service == "dialog-renderer" && $0.up }) else { return results }
        func appName(_ endpoint: String) -> String? {
            guard let client = try? RequestClient(context: context, endpoint: endpoint, timeout: timeout, retries: 0),
                  let stats = try? client.call(.sysStats, EmptyBody(), as: StatsBody.self) else { return nil }
            return stats.details["appName"]?.stringValue
        }
        guard let heard = appName(router.endpoint), let said = appName(results[dialog].endpoint), heard != said else {
            return results
        }
        var checked = results
        let old = checked[dialog]
        checked[dialog] = ServiceHealth(service: old.service, endpoint: old.endpoint, up: true, version: old.version,
                                        milliseconds: old.milliseconds, error: nil, ready: false,
                                        notReady: "its texts say the app name '\(said)' but intent-router hears '\(heard)': "
                                            + "give both the same --app-name")
        return checked
    }

    /// Why a service that answers cannot serve, or nil: fuel-lookup until it holds price-ingest's
    /// snapshot (its `synced`); price-ingest and location-cache while their store's file is gone
    /// (deleted or replaced while they ran: they refuse every write). The others serve once they answer.
    private static func notReadyReason(_ name: String, _ client: RequestClient) throws -> String? {
        switch name {
        case "fuel-lookup":
            let stats = try client.call(.sysStats, EmptyBody(), as: StatsBody.self)
            return LookupReadiness.notReadyReason(StatsFigures(stats.details))
        case "price-ingest", "location-cache":
            let stats = try client.call(.sysStats, EmptyBody(), as: StatsBody.self)
            guard StatsFigures(stats.details).bool("storeFileGone") == true else { return nil }
            return "its store file is gone (deleted or replaced while it ran): it stores nothing until restarted"
        default:
            return nil
        }
    }
}
