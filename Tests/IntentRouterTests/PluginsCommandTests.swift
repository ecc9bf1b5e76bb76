import Foundation
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
    }

    @Test func aRouterThatDoesNotAnswer_isExitStatus69() throws {
        let cli = try ServiceProcess("fuelboard", ["plugins", "--router", try unservedEndpoint(), "--timeout", "300ms"])
        #expect(try cli.waitForExit(timeout: .seconds(30)) == 69, "\(cli.log)")
        #expect(cli.log.contains("intent-router does not answer"), "\(cli.log)")
    }
}
