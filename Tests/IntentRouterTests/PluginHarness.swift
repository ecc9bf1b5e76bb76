import Foundation
import IntentKit
import IntentRouter
import Messages
import ServiceKit
import ServiceTesting
import ZeroMQ

/// intent-router in-process (backends unserved: plug-in intents need none) with a client, and
/// kit-based intent services on threads of their own.
final class PluginHarness {
    private(set) var router: InProcessService
    private(set) var client: RequestClient
    /// Where intent services connect.
    let plugins: String
    let deadline: Duration
    private var services: [RunningIntentService] = []

    /// Where the router finds location-cache (unserved unless a test provides one).
    private let location: String?

    init(deadline: Duration = .seconds(2), plugins: String = "tcp://127.0.0.1:*", location: String? = nil) throws {
        self.deadline = deadline
        self.location = location
        router = try Self.startRouter(deadline: deadline, plugins: plugins, location: location)
        client = try RouterHarness.client(router)
        self.plugins = try client.call(routerServicesType, EmptyBody(), as: RouterServicesReply.self).endpoint
    }

    static func startRouter(deadline: Duration, plugins: String, location: String? = nil) throws -> InProcessService {
        let down = try unservedEndpoint()
        return try InProcessService.start { context in
            var configuration = RouterConfiguration(endpoint: "tcp://127.0.0.1:*", location: location ?? down, lookup: down,
                                                    dialog: down)
            configuration.deadline = deadline
            configuration.plugins = plugins
            return try IntentRouterService.makeServer(context: context, configuration: configuration,
                                                      logger: Logger(label: "intent-router", level: .critical))
        }
    }

    /// Stops the router and starts a fresh one on the same plug-in endpoint (it knows nobody).
    func restartRouter() throws {
        router.stop()
        let deadline = ContinuousClock.now + .seconds(5)
        while true {
            do {
                router = try Self.startRouter(deadline: self.deadline, plugins: plugins, location: location)
                break
            } catch where ContinuousClock.now < deadline {
                // The old relay thread may still hold the port for a moment: bind again.
                _ = DispatchSemaphore(value: 0).wait(timeout: .now() + .milliseconds(20))
            }
        }
        client = try RouterHarness.client(router)
    }

    /// Starts a service and, unless told otherwise, waits until the router has registered it.
    @discardableResult
    func start(_ name: String, _ intents: [IntentDefinition], instance: String? = nil,
               waitForRegistration: Bool = true) throws -> RunningIntentService {
        let service = IntentService(name: name, router: plugins, instance: instance, heartbeat: .milliseconds(100),
                                    intents: intents, logger: Logger(label: name, level: .critical)).start()
        services.append(service)
        if waitForRegistration {
            guard service.wait(until: { $0.registered || $0.refusal != nil }), service.status.refusal == nil else {
                throw PluginTestError("\(name) did not register: \(String(describing: service.status.refusal))")
            }
        }
        return service
    }

    func ask(_ utterance: String, user: String = "u1", session: String? = nil,
             location: Coordinate? = nil) throws -> AssistantReply {
        try client.call(.assistantAsk, AssistantAskRequest(user: user, utterance: utterance, location: location,
                                                           session: session),
                        as: AssistantReply.self)
    }

    func listing() throws -> [RegisteredService] {
        try client.call(routerServicesType, EmptyBody(), as: RouterServicesReply.self).services
    }

    /// Waits until the router's listing satisfies `predicate`.
    func waitForListing(timeout: Duration = .seconds(5), _ predicate: ([RegisteredService]) -> Bool) throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if predicate(try listing()) { return true }
            _ = DispatchSemaphore(value: 0).wait(timeout: .now() + .milliseconds(20))
        }
        return false
    }

    func stop() {
        for service in services { service.kill() }
        router.stop()
    }
}

struct PluginTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Intents the tests plug in.
enum TestIntents {
    static let fuelParameter = PluginParameter.oneOf("fuel", [("E10", ["unleaded", "petrol"]), ("B7", ["diesel"])])

    /// "Ask FuelBoard to tell me about diesel": resolve asks for a missing fuel; handle answers
    /// with the instance that served it as the value.
    static func fuelFact(instance: String = "one", help: String? = nil) -> IntentDefinition {
        IntentDefinition(
            "FuelFact", parameters: [fuelParameter],
            phrases: ["[ask] {app} [to] tell me about {fuel}", "[ask] {app} for a fuel fact"], help: help,
            resolve: { request in
                request.string("fuel") == nil ? .needsValue("fuel", "Which fuel, unleaded or diesel?") : .success()
            },
            handle: { request in
                .success("\(request.string("fuel") ?? "?") is a fuel.", value: instance)
            })
    }

    /// "Ask FuelBoard for the price at the Tesco in Selby": two stations, so resolve asks which.
    static let stationPrice = IntentDefinition(
        "TescoPrice", parameters: [PluginParameter(name: "station", type: .string)],
        phrases: ["[ask] {app} [for] the price at [the] tesco in selby"],
        resolve: { request in
            guard request.string("station") == nil else { return .success() }
            return .disambiguation("station", options: [
                PluginOption(value: "tesco-1", title: "Doncaster Road"),
                PluginOption(value: "tesco-2", title: "Portholme Road"),
            ], "There are two Tesco stations in Selby: Doncaster Road or Portholme Road?")
        },
        handle: { request in
            .success("Diesel costs £1.399 at \(request.string("station") ?? "?").", value: request.string("station"))
        })

    /// "Ask FuelBoard to clear my notes": needs a yes first.
    static let clearNotes = IntentDefinition(
        "ClearNotes", phrases: ["[ask] {app} [to] clear my notes"],
        confirm: { _ in .confirmationRequired("Do you really want me to clear your notes?") },
        handle: { _ in .success("Your notes are cleared.") })
}
