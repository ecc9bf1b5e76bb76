@testable import IntentRouter
import Foundation
import IntentKit
import Messages
import Testing

/// While a service has live instances, a new replica must declare exactly the same intents: the
/// router serves one declaration per service, so a replica that differs used to be accepted with
/// its declarations silently ignored (and, declaring no `usesLocation`, was sent the user's location
/// on the strength of the first replica's declaration).
@Suite(.serialized)
struct PluginReplicaTests {
    private static func whereAmI(usesLocation: Bool) -> IntentDefinition {
        PluginLocationSharingTests.whereAmI(usesLocation: usesLocation)
    }

    @Test(arguments: [true, false])
    func aReplicaDeclaringUsesLocationOtherwise_isRefusedNamingTheIntentAndTheField(first: Bool) throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        try harness.start("where", [Self.whereAmI(usesLocation: first)], instance: "a")
        let replica = try harness.start("where", [Self.whereAmI(usesLocation: !first)], instance: "b",
                                        waitForRegistration: false)
        #expect(replica.wait { $0.refusal != nil })
        let refusal = try #require(replica.status.refusal)
        #expect(refusal.code == "conflict")
        let difference = "intent WhereAmI differs in usesLocation (running: \(first); this replica: \(!first))"
        #expect(refusal.reason.contains(difference), "\(refusal.reason)")
        #expect(refusal.reason.contains("stop the running replicas first"), "\(refusal.reason)")
        #expect(try harness.listing().first?.instances.map(\.instance) == ["a"])
        // Only the declared replica is asked: a replica that did not declare it never sees the location.
        let reply = try harness.ask("Ask FuelBoard to locate me", location: PluginLocationSharingTests.here)
        #expect(reply.value == (first ? "53.7838,-1.0664" : "none"))
    }

    private static let fuel = TestIntents.fuelParameter
    private static let factPhrases = ["[ask] {app} [to] tell me about {fuel}", "[ask] {app} for a fuel fact"]
    private static func fact(parameters: [PluginParameter] = [fuel], phrases: [String] = factPhrases,
                             resolves: Bool = true, help: String? = nil) -> IntentDefinition {
        let resolve: StageHandler = { _ in .success() }
        return IntentDefinition("FuelFact", parameters: parameters, phrases: phrases, help: help,
                                resolve: resolves ? resolve : nil, handle: { _ in .success("A fact.") })
    }

    @Test(arguments: [
        ("phrases", fact(phrases: ["[ask] {app} [to] tell me about {fuel}"])),
        ("parameters", fact(parameters: [.oneOf("fuel", [("E10", ["petrol"]), ("B7", ["diesel"])])])),
        ("stages (running: resolve, handle; this replica: handle)", fact(resolves: false)),
        // Longer than a first registration may give: it was accepted, and never said.
        ("help", fact(help: "You can also ask me a fuel fact. " + String(repeating: "Really. ", count: 30))),
    ])
    func aReplicaDifferingInAnyDeclaration_isRefusedSayingWhat(field: String, replica: IntentDefinition) throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        try harness.start("fuel-facts", [Self.fact()], instance: "a")
        let other = try harness.start("fuel-facts", [replica], instance: "b", waitForRegistration: false)
        #expect(other.wait { $0.refusal != nil })
        #expect(other.status.refusal?.code == "conflict")
        #expect(other.status.refusal?.reason.contains("intent FuelFact differs in \(field)") == true,
                "\(other.status.refusal?.reason ?? "accepted")")
    }

    @Test func aReplicaMissingAnIntent_isRefusedNamingIt() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        try harness.start("mixed", [Self.fact(), TestIntents.clearNotes], instance: "a")
        let other = try harness.start("mixed", [Self.fact()], instance: "b", waitForRegistration: false)
        #expect(other.wait { $0.refusal != nil })
        #expect(other.status.refusal?.reason.contains("intent ClearNotes is not declared by this replica") == true,
                "\(other.status.refusal?.reason ?? "accepted")")
    }

    @Test func aReplicaDeclaringTheSame_inAnotherOrder_isAcceptedAndSharesTheLoad() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        try harness.start("mixed", [Self.fact(), TestIntents.clearNotes], instance: "a")
        try harness.start("mixed", [TestIntents.clearNotes, Self.fact()], instance: "b")
        #expect(try harness.listing().first?.instances.map(\.instance) == ["a", "b"])
    }

    @Test func afterTheRunningReplicasStop_newDeclarationsAreAccepted() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        let old = try harness.start("where", [Self.whereAmI(usesLocation: false)], instance: "a")
        old.stop()
        #expect(try harness.waitForListing { $0.first?.instances.isEmpty == true })
        try harness.start("where", [Self.whereAmI(usesLocation: true)], instance: "b")
        #expect(try harness.listing().first?.locationIntents == ["WhereAmI"])
    }

    // MARK: - The comparison

    private static func intent(_ name: String, stages: [PluginStage]? = nil, usesLocation: Bool? = nil,
                               parameters: [PluginParameter]? = nil) -> PluginIntent {
        PluginIntent(name: name, parameters: parameters, phrases: ["{app} \(name)"], stages: stages,
                     usesLocation: usesLocation)
    }

    /// Another process registering under a running instance's id, declaring `usesLocation`, is
    /// refused: the running instance keeps serving and is never sent the user's location.
    @Test func aTakeoverUnderARunningInstancesID_cannotTurnOnUsesLocation() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        try harness.start("where", [Self.whereAmI(usesLocation: false)], instance: "a")
        let takeover = try harness.start("where", [Self.whereAmI(usesLocation: true)], instance: "a",
                                         waitForRegistration: false)
        #expect(takeover.wait { $0.refusal != nil })
        #expect(takeover.status.refusal?.code == "conflict")
        #expect(takeover.status.refusal?.reason.contains("usesLocation (running: false; this replica: true)") == true,
                "\(takeover.status.refusal?.reason ?? "none")")
        let reply = try harness.ask("Ask FuelBoard to locate me", location: Coordinate(lat: 53.95, lng: -1.08))
        #expect(reply.code == .success)
        #expect(reply.value == "none", "the location reached an intent that never asked for it")
    }

    @Test func declarationsThatMeanTheSame_areTheSame() {
        let running = [Self.intent("A", stages: [.resolve, .handle]), Self.intent("B", usesLocation: false)]
        let replica = [Self.intent("B", stages: [.handle, .confirm, .resolve]),
                       Self.intent("A", stages: [.handle, .resolve, .handle], usesLocation: nil, parameters: [])]
        #expect(PluginReplicaCheck.difference(running: running, replica: replica) == nil)
    }

    /// A connection alone with its service may register again with other declarations; from another
    /// connection, the same instance id (a reconnect, or anyone who read it in `router.services`)
    /// replaces the registration only with the same declarations, and that connection keeps them:
    /// a takeover could otherwise turn on `usesLocation` (fuzzing: it was then sent users'
    /// locations; review: in two frames, the same declarations and then others).
    @Test func anInstanceRegisteringAgain_changesItsDeclarationsOnlyFromItsOwnConnection() throws {
        let registry = PluginRegistry(appName: "FuelBoard", builtIns: try PhraseMatcher(phrases: [], slots: []))
        let first = PluginRegister(service: "s", instance: "a", intents: [Self.intent("A")], heartbeatMs: 1000)
        _ = try registry.register(first, routingID: Data([1]), now: .now)
        let located = [Self.intent("A", usesLocation: true)]
        let takeover = PluginRegister(service: "s", instance: "a", intents: located, heartbeatMs: 1000)
        #expect(throws: PluginRefusal.self) { try registry.register(takeover, routingID: Data([2]), now: .now) }
        #expect(registry.services["s"]?.intents.first?.usesLocation != true)
        #expect(registry.byRoutingID[Data([1])] != nil, "the running registration stays")
        // The same declarations from a new connection: a reconnect, which replaces the old one.
        #expect(try registry.register(first, routingID: Data([2]), now: .now).replaced?.routingID == Data([1]))
        // Alone now, it still keeps the declarations it took over, under its id or another.
        #expect(throws: PluginRefusal.self) { try registry.register(takeover, routingID: Data([2]), now: .now) }
        let renamed = PluginRegister(service: "s", instance: "c", intents: [Self.intent("A")], heartbeatMs: 1000)
        #expect(try registry.register(renamed, routingID: Data([2]), now: .now).replaced?.instance == "a")
        let renamedLocated = PluginRegister(service: "s", instance: "c", intents: located, heartbeatMs: 1000)
        #expect(throws: PluginRefusal.self) { try registry.register(renamedLocated, routingID: Data([2]), now: .now) }
        #expect(registry.services["s"]?.intents.first?.usesLocation != true)
        #expect(registry.byRoutingID[Data([2])]?.instance == "c")
        // The instance it replaced comes back with its declarations, beside it.
        #expect(try registry.register(first, routingID: Data([1]), now: .now).replaced == nil)
        #expect(registry.services["s"]?.instances.map(\.instance) == ["c", "a"])

        // A connection alone with its service from the start may change them.
        let fresh = PluginRegistry(appName: "FuelBoard", builtIns: try PhraseMatcher(phrases: [], slots: []))
        _ = try fresh.register(first, routingID: Data([1]), now: .now)
        #expect(try fresh.register(takeover, routingID: Data([1]), now: .now).replaced != nil)
        #expect(fresh.services["s"]?.intents.first?.usesLocation == true)
        _ = try fresh.register(PluginRegister(service: "s", instance: "b", intents: located, heartbeatMs: 1000),
                               routingID: Data([3]), now: .now)
        #expect(throws: PluginRefusal.self) { try fresh.register(first, routingID: Data([4]), now: .now) }
        #expect(fresh.services["s"]?.instances.map(\.instance) == ["a", "b"])
    }

    @Test func declarationsThatDiffer_areNamed() {
        let running = [Self.intent("A", usesLocation: true)]
        #expect(PluginReplicaCheck.difference(running: running, replica: [Self.intent("A")])
            == "intent A differs in usesLocation (running: true; this replica: false)")
        #expect(PluginReplicaCheck.difference(running: running, replica: [Self.intent("A", usesLocation: true),
                                                                          Self.intent("B")])
            == "intent B is not declared by the running replicas")
    }
}
