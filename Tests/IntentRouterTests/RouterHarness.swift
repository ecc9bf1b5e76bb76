import Foundation
import IntentRouter
import Messages
import ServiceKit
import ServiceTesting
import ZeroMQ

/// Starts intent-router in-process against the given backend endpoints.
enum RouterHarness {
    static func start(location: String, lookup: String, dialog: String,
                      deadline: Duration = .seconds(2)) throws -> InProcessService {
        try InProcessService.start { context in
            var configuration = RouterConfiguration(endpoint: "tcp://127.0.0.1:*", location: location, lookup: lookup,
                                                    dialog: dialog)
            configuration.deadline = deadline
            return try IntentRouterService.makeServer(context: context, configuration: configuration,
                                                      logger: Logger(label: "intent-router", level: .critical))
        }
    }

    static func client(_ router: InProcessService) throws -> RequestClient {
        try RequestClient(context: Context(), endpoint: router.endpoint, timeout: .seconds(5), retries: 0)
    }
}

/// A backend that accepts connections and requests but never answers (a hung process).
final class SilentBackend {
    let endpoint: String
    private let socket: Socket

    init() throws {
        socket = try Socket(Context(), .router)
        socket.receiveHighWaterMark = 100_000
        endpoint = try socket.bind("tcp://127.0.0.1:*")
    }

    /// Reads whatever arrived so far (and answers none of it); returns how many requests.
    func drain() -> Int {
        var count = 0
        while (try? socket.receive(dontWait: true)) != nil { count += 1 }
        return count
    }
}

extension Duration {
    var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }
}
