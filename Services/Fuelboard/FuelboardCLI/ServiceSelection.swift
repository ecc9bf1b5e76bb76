import Foundation
import ServiceKit

/// The services of the topology a command asks (`health`, `stats`): all of them, or those `--only`
/// names, by full name (`fuel-lookup`) or by the name of its endpoint flag (`lookup`).
enum ServiceSelection {
    /// Every service with its endpoint, in the order the commands print them; a service whose
    /// setting lists several replicas (`tcp://a:5553,tcp://b:5553`) once per replica, so that a dead
    /// one is not hidden behind one that answers.
    static func all(_ topology: Topology) -> [(name: String, endpoint: String)] {
        [("intent-router", topology.router), ("price-ingest", topology.ingest), ("fuel-lookup", topology.lookup),
         ("location-cache", topology.location), ("dialog-renderer", topology.dialog)].flatMap { name, setting in
            Endpoint.list(setting).map { (name, $0) }
        }
    }

    /// What a result is filed under: the service's name, or `name@endpoint` for a service asked at
    /// several replicas.
    static func key(_ name: String, _ endpoint: String, in services: [(name: String, endpoint: String)]) -> String {
        services.count { $0.name == name } > 1 ? "\(name)@\(endpoint)" : name
    }

    /// The short names, as the endpoint flags spell them.
    static let shortNames = ["router": "intent-router", "ingest": "price-ingest", "lookup": "fuel-lookup",
                             "location": "location-cache", "dialog": "dialog-renderer"]

    static func chosen(_ arguments: ParsedArguments, _ topology: Topology) throws(ConfigurationError)
        -> [(name: String, endpoint: String)] {
        let services = all(topology)
        guard let only = arguments.value("--only") else { return services }
        let asked = only.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let known = services.map(\.name)
        let expected = "expected some of \(known.joined(separator: ", ")), or router, ingest, lookup, location, dialog"
        guard !asked.isEmpty else {
            throw ConfigurationError("--only: no service named (\(expected))")
        }
        let names = asked.map { shortNames[$0] ?? $0 }
        let unknown = zip(asked, names).filter { !known.contains($0.1) }.map(\.0)
        guard unknown.isEmpty else {
            throw ConfigurationError("--only: unknown service \(unknown.joined(separator: ", ")) (\(expected))")
        }
        return services.filter { names.contains($0.name) }
    }

    /// `body` for every service at once, each on a thread of its own (a service that does not
    /// answer costs its timeout once, not once per service after it); results in the given order.
    static func each<Result: Sendable>(_ services: [(name: String, endpoint: String)],
                                       _ body: @escaping @Sendable (String, String) -> Result) -> [Result] {
        OnThreads.map(services.count, name: "ask") { index in body(services[index].name, services[index].endpoint) }
    }
}
