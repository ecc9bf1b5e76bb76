import Foundation
@testable import FuelboardCLI
import Messages
import ServiceTesting
import Testing

/// `fuelboard plugins`: what a plug-in developer checks after starting a service.
struct PluginsCommandTests {
    @Test func listsEachServiceWithItsIntentsAndInstances() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        try harness.start("fuel-facts", [TestIntents.fuelFact()], instance: "ff-1")
        let cli = try ServiceProcess("fuelboard", ["plugins", "--router", harness.router.endpoint])
        #expect(try cli.waitForExit(timeout: .seconds(30)) == 0, "\(cli.log)")
        #expect(cli.log.contains("plug-in endpoint \(harness.plugins)"), "\(cli.log)")
        let row = cli.log.split(separator: "\n").first { $0.contains("fuel-facts") }
        #expect(row?.contains("FuelFact") == true && row?.contains("ff-1") == true, "\(cli.log)")
        // Heard from within a heartbeat or two: a number of milliseconds, not LATE.
        #expect(row?.contains(" ms ago") == true && row?.contains("LATE") == false, "\(cli.log)")
    }

    @Test func anIntentThatReceivesTheLocation_isMarked() {
        let service = RegisteredService(service: "s", intents: ["Near", "Far"], locationIntents: ["Near"], instances: [])
        #expect(PluginsCommand.intents(service) == "Near (location),Far")
        let older = RegisteredService(service: "s", intents: ["Near"], instances: [])
        #expect(PluginsCommand.intents(older) == "Near")
    }

    @Test func anInstanceNotHeardFromForTwoHeartbeats_isMarkedLate() {
        let late = RegisteredInstance(instance: "i", heartbeatMs: 1000, requestsInFlight: 0, requestsHandled: 0,
                                      lastHeardMs: 2400)
        #expect(PluginsCommand.lastHeard(late) == "LATE 2400 ms ago")
        let fresh = RegisteredInstance(instance: "i", heartbeatMs: 1000, requestsInFlight: 0, requestsHandled: 0,
                                       lastHeardMs: 120)
        #expect(PluginsCommand.lastHeard(fresh) == "120 ms ago")
        let old = RegisteredInstance(instance: "i", heartbeatMs: 1000, requestsInFlight: 0, requestsHandled: 0)
        #expect(PluginsCommand.lastHeard(old) == "-")
    }

    @Test func aRouterThatDoesNotAnswer_isExitStatus69() throws {
        let cli = try ServiceProcess("fuelboard", ["plugins", "--router", try unservedEndpoint(), "--timeout", "300ms"])
        #expect(try cli.waitForExit(timeout: .seconds(30)) == 69, "\(cli.log)")
        #expect(cli.log.contains("intent-router does not answer"), "\(cli.log)")
    }
}
