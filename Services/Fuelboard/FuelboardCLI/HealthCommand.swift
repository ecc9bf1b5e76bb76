import Foundation
import Messages
import ServiceKit

/// `fuelboard health`: pings every service of the topology; exit 0 when all answer.
enum HealthCommand {
    static let spec = (
        usage: "[--only NAMES]",
        summary: "Pings every service in the topology (sys.ping) and says which answer and which are down.\n"
            + "Exits 0 when every checked service answers, 69 otherwise.",
        options: [
            OptionSpec("--only", value: "NAMES", help: "comma-separated services to check (e.g. price-ingest,fuel-lookup)"),
        ]
    )

    struct ServiceHealth: Codable {
        let service: String
        let endpoint: String
        let up: Bool
        let version: String?
        let milliseconds: Double?
        let error: String?
    }

    static func services(_ topology: Topology) -> [(String, String)] {
        [("intent-router", topology.router), ("price-ingest", topology.ingest), ("fuel-lookup", topology.lookup),
         ("location-cache", topology.location), ("dialog-renderer", topology.dialog)]
    }

    static func run(_ cli: CLIContext) throws -> Int32 {
        var checked = services(cli.topology)
        if let only = cli.arguments.value("--only") {
            let names = Set(only.split(separator: ",").map { String($0) })
            let unknown = names.subtracting(checked.map(\.0))
            guard unknown.isEmpty else { throw ConfigurationError("--only: unknown service(s) \(unknown.sorted())") }
            checked = checked.filter { names.contains($0.0) }
        }
        let results: [ServiceHealth] = try checked.map { name, endpoint -> ServiceHealth in
            let client = try cli.client(endpoint, timeout: min(cli.timeout, .seconds(2)), retries: 0)
            let started = ContinuousClock.now
            do {
                let ping = try client.call(.sysPing, EmptyBody(), as: PingBody.self)
                let elapsed = ContinuousClock.now - started
                let ms = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
                return ServiceHealth(service: name, endpoint: endpoint, up: ping.service == name,
                                     version: ping.version, milliseconds: (ms * 10).rounded() / 10,
                                     error: ping.service == name ? nil : "answered as \(ping.service)")
            } catch {
                return ServiceHealth(service: name, endpoint: endpoint, up: false, version: nil, milliseconds: nil,
                                     error: ServiceError.from(error).message)
            }
        }
        if cli.json {
            try cli.printJSON(results)
        } else {
            var table = TextTable(headers: ["service", "endpoint", "state", "ms"], rightAligned: [3])
            for result in results {
                table.add([result.service, result.endpoint, result.up ? "up" : "DOWN",
                           result.milliseconds.map { String($0) } ?? "-"])
            }
            print(table.rendered, terminator: "")
            let down = results.filter { !$0.up }.map(\.service)
            print(down.isEmpty ? "All \(results.count) services answer." : "Down: \(down.joined(separator: ", ")).")
        }
        return results.allSatisfy(\.up) ? ServiceMain.ExitCode.success : ServiceMain.ExitCode.unavailable
    }
}
