import Foundation
import IntentKit
import IntentRouter
import LocationCache
import Messages
import ServiceKit
import ServiceTesting
import Testing
import ZeroMQ

/// A location sent with an ask for a plug-in intent is stored as the user's last-known one,
/// exactly as for the built-in intents.
struct PluginLocationTests {
    @Test func ask_forAPluginIntentWithALocation_storesItInLocationCache() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("plugin-location-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let location = try InProcessService.start { context in
            try LocationCacheService(context: context, configuration: LocationCacheConfiguration(
                endpoint: "tcp://127.0.0.1:*", dataDirectory: directory),
                logger: Logger(label: "location-cache", level: .critical)).server
        }
        defer { location.stop() }
        let harness = try PluginHarness(location: location.endpoint)
        defer { harness.stop() }
        try harness.start("fuel-facts", [TestIntents.fuelFact()])

        let reply = try harness.ask("Ask FuelBoard to tell me about petrol", user: "plug-user",
                                    location: Coordinate(lat: 53.7838, lng: -1.0664))
        #expect(reply.code == .success)

        // The store is fire-and-forget on the router's side: ask until it shows, within a deadline.
        let client = try RequestClient(context: Context(), endpoint: location.endpoint, timeout: .seconds(2), retries: 0)
        let deadline = ContinuousClock.now + .seconds(5)
        var stored: LocationReply?
        while stored == nil && ContinuousClock.now < deadline {
            stored = try? client.call(.locationGet, UserRequest(user: "plug-user"), as: LocationReply.self)
        }
        #expect(stored?.lat == 53.7838)
        #expect(stored?.lng == -1.0664)
    }
}

/// Where the user is reaches only the intents that declared `usesLocation`: the ask's location,
/// else the session's, else the last-known one from location-cache.
struct PluginLocationSharingTests {
    static let here = Coordinate(lat: 53.7838, lng: -1.0664)

    /// "Ask FuelBoard to locate me" (optionally asking for a fuel first): its value is the location
    /// the request carried, "none" without one.
    static func whereAmI(usesLocation: Bool, asksForFuel: Bool = false) -> IntentDefinition {
        let askForFuel: StageHandler = { request in
            request.string("fuel") == nil ? .needsValue("fuel", "Which fuel?") : .success()
        }
        let handle: StageHandler = { request in
            let location = request.location.map { "\($0.lat),\($0.lng)" }
            // A last-known location says when it was observed.
            let observed = request.locationAt.map { " observed \(Int($0.timeIntervalSince1970))" } ?? ""
            return .success("You asked.", value: (location ?? "none") + observed)
        }
        return IntentDefinition("WhereAmI", parameters: [TestIntents.fuelParameter],
                                phrases: ["[ask] {app} [to] locate me", "[ask] {app} [to] locate me for {fuel}"],
                                usesLocation: usesLocation, resolve: asksForFuel ? askForFuel : nil, handle: handle)
    }

    private static func locationCache(_ directory: URL) throws -> InProcessService {
        try InProcessService.start { context in
            try LocationCacheService(context: context, configuration: LocationCacheConfiguration(
                endpoint: "tcp://127.0.0.1:*", dataDirectory: directory),
                logger: Logger(label: "location-cache", level: .critical)).server
        }
    }

    @Test func anIntentThatDidNotDeclareIt_neverReceivesTheLocation() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        try harness.start("where", [Self.whereAmI(usesLocation: false)])
        let reply = try harness.ask("Ask FuelBoard to locate me", location: Self.here)
        #expect(reply.code == .success, "\(reply.dialog)")
        #expect(reply.value == "none")
        #expect(try harness.listing().first?.locationIntents == [])
    }

    @Test func anIntentThatDeclaredIt_receivesTheAsksLocation() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        try harness.start("where", [Self.whereAmI(usesLocation: true)])
        let reply = try harness.ask("Ask FuelBoard to locate me", location: Self.here)
        #expect(reply.value == "53.7838,-1.0664")
        #expect(try harness.listing().first?.locationIntents == ["WhereAmI"])
    }

    @Test func anAskWithoutALocation_sendsTheLastKnownOne_withWhenItWasObserved() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("plugin-location-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let location = try Self.locationCache(directory)
        defer { location.stop() }
        let client = try RequestClient(context: Context(), endpoint: location.endpoint, timeout: .seconds(5), retries: 0)
        let at = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 3 * 3600).rounded())
        _ = try client.call(.locationPut, LocationPutRequest(user: "known", lat: 51.5, lng: -0.12, at: at),
                            as: LocationPutReply.self)
        let harness = try PluginHarness(location: location.endpoint)
        defer { harness.stop() }
        try harness.start("where", [Self.whereAmI(usesLocation: true), TestIntents.fuelFact()])
        let stored = "51.5,-0.12 observed \(Int(at.timeIntervalSince1970))"

        #expect(try harness.ask("Ask FuelBoard to locate me", user: "known").value == stored)
        // A shortcut's assistant.run too.
        let run = try harness.client.call(.assistantRun, AssistantRunRequest(user: "known", intent: "WhereAmI"),
                                          as: AssistantReply.self)
        #expect(run.value == stored)
        // The ask's own location has no "observed": it is where the user is now.
        #expect(try harness.ask("Ask FuelBoard to locate me", user: "known", location: Self.here).value
            == "53.7838,-1.0664")
        // Nobody known: the service is still asked, with no location.
        let unknown = try harness.ask("Ask FuelBoard to locate me", user: "stranger")
        #expect(unknown.code == .success)
        #expect(unknown.value == "none")
    }

    @Test func anAskWithoutALocation_whenLocationCacheIsDown_stillAsksTheService() throws {
        let harness = try PluginHarness(deadline: .seconds(2))
        defer { harness.stop() }
        try harness.start("where", [Self.whereAmI(usesLocation: true)])
        let reply = try harness.ask("Ask FuelBoard to locate me")
        #expect(reply.code == .success)
        #expect(reply.value == "none")
    }

    @Test(arguments: [true, false])
    func aFollowUpTurnWithoutALocation_keepsTheFirstTurnsForAnIntentThatDeclaredIt(usesLocation: Bool) throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        try harness.start("where", [Self.whereAmI(usesLocation: usesLocation, asksForFuel: true)])
        let question = try harness.ask("Ask FuelBoard to locate me", location: Self.here)
        #expect(question.code == .needsValue)
        let answer = try harness.ask("diesel", session: question.session)
        #expect(answer.code == .success)
        #expect(answer.value == (usesLocation ? "53.7838,-1.0664" : "none"))
    }
}

/// `fuelboard ask --json` prints a plug-in's reply body as it came, fields the CLI does not model
/// (`service`, `result`) included.
struct PluginCLITests {
    @Test func askJSON_forAPluginIntent_keepsThePluginFields() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        try harness.start("fuel-facts", [TestIntents.fuelFact()])
        let cli = try ServiceProcess("fuelboard", ["ask", "Ask FuelBoard to tell me about petrol", "--user", "u1",
                                                   "--router", harness.router.endpoint, "--json"])
        #expect(try cli.waitForExit() == 0)
        #expect(cli.log.contains(#""service" : "fuel-facts""#))
        #expect(cli.log.contains(#""result" : "success""#))
        #expect(cli.log.contains(#""dialog" : "E10 is a fuel.""#))
    }
}
