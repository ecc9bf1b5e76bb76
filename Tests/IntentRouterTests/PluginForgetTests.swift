import Foundation
@testable import FuelboardCLI
import IntentKit
@testable import IntentRouter
import Messages
import ServiceKit
import ServiceTesting
import Testing

/// Forgetting a stopped intent service: by an operator (`router.forget`, `fuelboard plugins
/// --forget`), and by the router itself when it holds as many services as it may.
@Suite(.serialized)
struct PluginForgetTests {
    private static func register(_ registry: PluginRegistry, _ service: String, routingID: UInt8 = 1) throws
        -> PluginRegistry.Admission
    {
        let intent = PluginIntent(name: "I\(service)", phrases: ["{app} \(service)"])
        return try registry.register(PluginRegister(service: service, instance: "i", intents: [intent], heartbeatMs: 1000),
                                     routingID: Data([routingID]),
                                     now: .now)
    }

    private static func registry() throws -> PluginRegistry {
        PluginRegistry(appName: "FuelBoard", builtIns: try PhraseMatcher(phrases: [], slots: []))
    }

    @Test func onlyAStoppedService_isForgotten_andItsPhrasesGoWithIt() throws {
        let registry = try Self.registry()
        let instance = try Self.register(registry, "washes").instance
        #expect(registry.forget(service: "nobody") == .unknown)
        #expect(registry.forget(service: "washes") == .running(instances: 1))
        #expect(registry.listing.first?.stoppedMs == nil, "running: no stopped time")
        registry.remove(instance)
        let stopped = try #require(registry.listing.first?.stoppedMs)
        #expect(stopped >= 0)
        #expect(registry.recognize(["fuelboard", "washes"]) != nil, "a stopped service's phrase is kept")
        #expect(registry.forget(service: "washes") == .forgotten)
        #expect(registry.listing.isEmpty)
        #expect(registry.recognize(["fuelboard", "washes"]) == nil)
        #expect(registry.intent(named: "Iwashes") == nil)
        #expect(registry.forget(service: "washes") == .unknown)
    }

    /// Stopped services counted against the cap for good: a developer trying names could fill it,
    /// and every registration was then refused until the router restarted.
    @Test func atTheCap_theLongestStoppedServiceMakesRoom_andRunningOnesNever() throws {
        let registry = try Self.registry()
        var instances: [PluginInstance] = []
        for index in 0 ..< PluginRegistry.maxServices {
            instances.append(try Self.register(registry, "s\(index)", routingID: UInt8(index)).instance)
        }
        #expect(throws: PluginRefusal.self) { try Self.register(registry, "late") }
        registry.remove(instances[7])
        registry.remove(instances[3])
        let admitted = try Self.register(registry, "late", routingID: 251)
        #expect(admitted.forgotten == "s7", "the one stopped first")
        #expect(registry.services["s7"] == nil && registry.services["s3"] != nil)
        #expect(registry.services.count == PluginRegistry.maxServices)
        #expect(try Self.register(registry, "later", routingID: 252).forgotten == "s3")
        #expect(throws: PluginRefusal.self) { try Self.register(registry, "latest", routingID: 253) }
    }

    @Test func routerForget_overTheWire_refusesARunningOrUnknownService_andForgetsAStoppedOne() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        let service = try harness.start("fuel-facts", [TestIntents.fuelFact()])
        do {
            _ = try harness.client.call(routerForgetType, RouterForgetRequest(service: "fuel-facts"),
                                        as: RouterForgetReply.self)
            Issue.record("a running service was forgotten")
        } catch {
            #expect(error.code == .conflict && error.message.contains("1 running instance"), "\(error.message)")
        }
        do {
            _ = try harness.client.call(routerForgetType, RouterForgetRequest(service: "nobody"), as: RouterForgetReply.self)
            Issue.record("an unknown service was forgotten")
        } catch {
            #expect(error.code == .notFound, "\(error.message)")
        }
        do {
            _ = try harness.client.call(routerForgetType, ["name": "fuel-facts"], as: RouterForgetReply.self)
            Issue.record("a body without service was taken")
        } catch {
            #expect(error.code == .badRequest, "\(error.message)")
        }
        service.kill()
        #expect(try harness.waitForListing { $0.first?.instances.isEmpty == true && $0.first?.stoppedMs != nil })
        #expect(try harness.ask("Ask FuelBoard to tell me about diesel").dialog.contains("isn't running"))
        let reply = try harness.client.call(routerForgetType, RouterForgetRequest(service: "fuel-facts"),
                                            as: RouterForgetReply.self)
        #expect(reply == RouterForgetReply(service: "fuel-facts", intents: ["FuelFact"]))
        #expect(try harness.listing().isEmpty)
        let after = try harness.ask("Ask FuelBoard to tell me about diesel")
        #expect(after.service == nil && after.intent != "FuelFact" && !after.dialog.contains("isn't running"),
                "\(after.dialog)")
    }

    @Test func fuelboardPluginsForget_saysWhatWasForgotten_orWhyNot() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        let service = try harness.start("fuel-facts", [TestIntents.fuelFact()])
        let running = try ServiceProcess("fuelboard", ["plugins", "--forget", "fuel-facts", "--router", harness.router.endpoint])
        #expect(try running.waitForExit(timeout: .seconds(30)) == 1, "\(running.log)")
        #expect(running.log.contains("forget failed:") && running.log.contains("[conflict]"), "\(running.log)")
        service.kill()
        #expect(try harness.waitForListing { $0.first?.instances.isEmpty == true })
        let listed = try ServiceProcess("fuelboard", ["plugins", "--router", harness.router.endpoint])
        #expect(try listed.waitForExit(timeout: .seconds(30)) == 0, "\(listed.log)")
        #expect(listed.log.contains("(none running for "), "\(listed.log)")
        let forgot = try ServiceProcess("fuelboard", ["plugins", "--forget", "fuel-facts", "--router", harness.router.endpoint])
        #expect(try forgot.waitForExit(timeout: .seconds(30)) == 0, "\(forgot.log)")
        #expect(forgot.log.contains("Forgot fuel-facts (intents FuelFact)"), "\(forgot.log)")
        let unknown = try ServiceProcess("fuelboard", ["plugins", "--forget", "fuel-facts", "--router", harness.router.endpoint])
        #expect(try unknown.waitForExit(timeout: .seconds(30)) == 1, "\(unknown.log)")
        #expect(unknown.log.contains("[not_found]"), "\(unknown.log)")
    }

    @Test func aStoppedServicesListing_saysForHowLong() {
        let service = RegisteredService(service: "s", intents: ["A"], instances: [], stoppedMs: 185_000)
        #expect(PluginsCommand.stopped(service) == "(none running for 3 min)")
        #expect(PluginsCommand.stopped(RegisteredService(service: "s", intents: ["A"], instances: [], stoppedMs: 4_500))
            == "(none running for 4 s)")
        #expect(PluginsCommand.stopped(RegisteredService(service: "s", intents: ["A"], instances: [])) == "(none running)")
    }
}
