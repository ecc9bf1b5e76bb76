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
