import Foundation
import ServiceKit
import Synchronization

/// The services of the topology a command asks (`health`, `stats`): all of them, or those `--only`
/// names, by full name (`fuel-lookup`) or by the name of its endpoint flag (`lookup`).
enum ServiceSelection {
    /// Every service with its endpoint, in the order the commands print them.
    static func all(_ topology: Topology) -> [(name: String, endpoint: String)] {
        [("intent-router", topology.router), ("price-ingest", topology.ingest), ("fuel-lookup", topology.lookup),
         ("location-cache", topology.location), ("dialog-renderer", topology.dialog)]
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
        guard !asked.isEmpty else {
            throw ConfigurationError("--only: no service named (expected some of \(known.joined(separator: ", ")))")
        }
        let names = asked.map { shortNames[$0] ?? $0 }
        let unknown = zip(asked, names).filter { !known.contains($0.1) }.map(\.0)
        guard unknown.isEmpty else {
            throw ConfigurationError("--only: unknown service \(unknown.joined(separator: ", ")) (expected some of "
                + "\(known.joined(separator: ", ")), or router, ingest, lookup, location, dialog)")
        }
        return services.filter { names.contains($0.name) }
    }

    /// `body` for every service at once, each on a thread of its own (a service that does not
    /// answer costs its timeout once, not once per service after it); results in the given order.
    static func each<Result: Sendable>(_ services: [(name: String, endpoint: String)],
                                       _ body: @escaping @Sendable (String, String) -> Result) -> [Result] {
        // Threads of their own: Dispatch's concurrentPerform runs only as many at once as there
        // are cores, and these mostly wait.
        let results = Mutex<[Int: Result]>([:])
        let finished = DispatchGroup()
        for (index, service) in services.enumerated() {
            finished.enter()
            Thread {
                let result = body(service.name, service.endpoint)
                results.withLock { $0[index] = result }
                finished.leave()
            }.start()
        }
        finished.wait()
        let collected = results.withLock { $0 }
        return services.indices.compactMap { collected[$0] }
    }
}
