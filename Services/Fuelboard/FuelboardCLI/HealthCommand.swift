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
            OptionSpec("--only", value: "NAMES", help: "comma-separated services to check (price-ingest,fuel-lookup or ingest,lookup)"),
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

    static func run(_ cli: CLIContext) throws -> Int32 {
        let checked = try ServiceSelection.chosen(cli.arguments, cli.topology)
        let timeout = min(cli.timeout, .seconds(2)), context = cli.zmq
        let results = ServiceSelection.each(checked) { name, endpoint -> ServiceHealth in
            let started = ContinuousClock.now
            do {
                let client = try RequestClient(context: context, endpoint: endpoint, timeout: timeout, retries: 0)
                let ping = try client.call(.sysPing, EmptyBody(), as: PingBody.self)
                let elapsed = ContinuousClock.now - started
                let ms = elapsed.inSeconds * 1000
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
            let down = results.filter { !$0.up }.map { ServiceSelection.key($0.service, $0.endpoint, in: checked) }
            let kind = checked.count == Set(checked.map(\.name)).count ? "service" : "endpoint"
            let all = results.count == 1 ? "The \(kind) answers." : "All \(results.count) \(kind)s answer."
            print(down.isEmpty ? all : "Down: \(down.joined(separator: ", ")).")
        }
        return results.allSatisfy(\.up) ? ServiceMain.ExitCode.success : ServiceMain.ExitCode.unavailable
    }
}
