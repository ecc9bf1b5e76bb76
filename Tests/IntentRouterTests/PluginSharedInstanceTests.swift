import Foundation
@testable import FuelboardCLI
@testable import IntentRouter
import Messages
import Testing

/// Two processes given one instance id take each other's place at every heartbeat, for good; the
/// only sign was a notice-level log line (a plug-in developer's QA pass). The router counts the
/// takeovers, and `fuelboard plugins` marks the id.
struct PluginSharedInstanceTests {
    private static func register(_ registry: PluginRegistry, connection: UInt8, at now: ContinuousClock.Instant) throws
        -> PluginInstance
    {
        let intent = PluginIntent(name: "Wash", phrases: ["{app} wash"])
        return try registry.register(PluginRegister(service: "car-wash", instance: "cwA", intents: [intent],
                                                    heartbeatMs: 1000),
                                     routingID: Data([connection]), now: now).instance
    }

    @Test func takeoversInARow_areCounted_andARestartNowAndThenIsOne() throws {
        let registry = PluginRegistry(appName: "FuelBoard", builtIns: try PhraseMatcher(phrases: [], slots: []))
        let start = ContinuousClock.now
        var instance = try Self.register(registry, connection: 1, at: start)
        #expect(instance.takeovers == 0)
        for second in 1...4 {  // the two connections alternate, a second apart
            instance = try Self.register(registry, connection: UInt8(1 + second % 2), at: start + .seconds(second))
        }
        #expect(instance.takeovers == 4)
        #expect(registry.listing.first?.instances.first?.takeovers == 4)
        // An hour later a new connection (a restart whose old connection was not yet noticed gone).
        instance = try Self.register(registry, connection: 9, at: start + .seconds(3600))
        #expect(instance.takeovers == 1)
    }

    @Test func theCommand_marksAnIdTakenOverAgainAndAgain() {
        let calm = RegisteredInstance(instance: "cwA", heartbeatMs: 1000, requestsInFlight: 0, requestsHandled: 3,
                                      lastHeardMs: 10, takeovers: 1)
        let flapping = RegisteredInstance(instance: "cwB", heartbeatMs: 1000, requestsInFlight: 0, requestsHandled: 3,
                                          lastHeardMs: 10, takeovers: 18)
        #expect(PluginsCommand.instanceName(calm) == "cwA")
        #expect(PluginsCommand.instanceName(flapping) == "cwB (SHARED?)")
    }
}
