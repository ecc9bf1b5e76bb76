import Dispatch
import Foundation
import IntentKit
import IntentRouter
import Messages
import ServiceKit
import Testing
import ZeroMQ

/// Intent services plugged into the router over its plug-in endpoint: registration, the three
/// stages, sessions across turns, liveness, restarts, load sharing and collisions.
@Suite(.serialized)
struct PluginServiceTests {
    @Test func register_whenAccepted_isListedByRouterServices() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        try harness.start("fuel-facts", [TestIntents.fuelFact()], instance: "i-1")
        let listing = try harness.listing()
        #expect(listing.map(\.service) == ["fuel-facts"])
        #expect(listing.first?.intents == ["FuelFact"])
        #expect(listing.first?.instances.map(\.instance) == ["i-1"])
    }

    @Test func ask_forAPluginIntent_runsResolveAndHandle() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        try harness.start("fuel-facts", [TestIntents.fuelFact()])
        let reply = try harness.ask("Ask FuelBoard to tell me about petrol")
        #expect(reply.code == .success)
        #expect(reply.dialog == "E10 is a fuel.")
        #expect(reply.intent == "FuelFact")
        #expect(reply.service == "fuel-facts")
        #expect(reply.parameters == ["fuel": .string("E10")])
        #expect(reply.session == nil)
    }

    @Test func ask_whenResolveNeedsAValue_theNextUtteranceAnswersIt() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        try harness.start("fuel-facts", [TestIntents.fuelFact()])
        let question = try harness.ask("Ask FuelBoard for a fuel fact")
        #expect(question.code == .needsValue)
        #expect(question.needs == "fuel")
        #expect(question.dialog == "Which fuel, unleaded or diesel?")
        let session = try #require(question.session)
        let answer = try harness.ask("diesel please", session: session)
        #expect(answer.code == .success)
        #expect(answer.dialog == "B7 is a fuel.")
    }

    /// An answer a plug-in's question could not take ("banana") left its request counted as in
    /// flight for good: every stop waited its whole grace and warned of asks left unanswered
    /// (docs walkthrough).
    @Test func aNonAnswerToAPluginsQuestion_leavesNoRequestInFlight() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        try harness.start("fuel-facts", [TestIntents.fuelFact()])
        let question = try harness.ask("Ask FuelBoard for a fuel fact")
        let session = try #require(question.session)
        let again = try harness.ask("banana", session: session)
        #expect(again.code == .needsValue && again.session == session)
        #expect(try harness.ask("diesel", session: session).dialog == "B7 is a fuel.")
        let stats = try harness.client.call(.sysStats, EmptyBody(), as: StatsBody.self)
        #expect(stats.details["requestsInFlight"] == .number(0), "\(stats.details["requestsInFlight"] ?? .null)")
    }

    /// The built-in grammar hears "petrel" as a misheard "petrol"; a plug-in hears it as said (a
    /// plug-in's phrase with such a word was registered and could never be reached: review).
    @Test func aPluginsPhrase_hearsTheWordsAsSaid_notCorrectedForFuel() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        let birds = IntentDefinition("StormPetrel", parameters: [], phrases: ["[ask] {app} tell me about the storm petrel"],
                                     handle: { _ in .success("A small seabird.") })
        try harness.start("birds", [birds])
        let reply = try harness.ask("Ask FuelBoard tell me about the storm petrel")
        #expect(reply.service == "birds" && reply.dialog == "A small seabird.", "\(reply.dialog)")
    }

    @Test func ask_withDisambiguation_theNextUtterancePicksAnOption() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        try harness.start("station-test", [TestIntents.stationPrice])
        let question = try harness.ask("Ask FuelBoard for the price at the Tesco in Selby")
        #expect(question.code == .disambiguation)
        #expect(question.dialog == "There are two Tesco stations in Selby: Doncaster Road or Portholme Road?")
        #expect(question.options?.map(\.title) == ["Doncaster Road", "Portholme Road"])
        let session = try #require(question.session)
        let answer = try harness.ask("the one on Portholme Road", session: session)
        #expect(answer.code == .success)
        #expect(answer.value == "tesco-2")
        let again = try harness.ask("Ask FuelBoard for the price at the Tesco in Selby")
        let againSession = try #require(again.session)
        let short = try harness.ask("Doncaster", session: againSession)
        #expect(short.value == "tesco-1")
    }

    @Test func ask_whenConfirmationIsRequired_yesRunsHandle() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        try harness.start("notes", [TestIntents.clearNotes])
        let question = try harness.ask("Ask FuelBoard to clear my notes")
        #expect(question.code == .confirmationRequired)
        let session = try #require(question.session)
        let answer = try harness.ask("yes", session: session)
        #expect(answer.code == .success)
        #expect(answer.dialog == "Your notes are cleared.")
    }

    /// A service that replaced a stopped one, with the same phrase under another intent name, gets
    /// the phrase: the stopped one kept it ("the old service isn't running", re-check).
    @Test func aRunningService_winsAPhraseOverAStoppedOne() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        let old = try harness.start("old-facts", [TestIntents.fuelFact()])
        old.suspend()
        #expect(try harness.waitForListing { $0.first?.instances.isEmpty == true })
        let renamed = IntentDefinition("NewFuelFact", parameters: [TestIntents.fuelParameter],
                                       phrases: ["[ask] {app} [to] tell me about {fuel}"],
                                       handle: { request in .success("\(request.string("fuel") ?? "?") is a fuel.") })
        try harness.start("new-facts", [renamed])
        let reply = try harness.ask("Ask FuelBoard to tell me about diesel")
        #expect(reply.service == "new-facts", "\(reply.dialog)")
        #expect(reply.dialog == "B7 is a fuel.")
    }

    @Test func service_whenItStopsHeartbeating_isExpiredAndAsksFailAtOnce() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        let service = try harness.start("fuel-facts", [TestIntents.fuelFact()])
        service.suspend()
        #expect(try harness.waitForListing { $0.first?.instances.isEmpty == true })
        let start = ContinuousClock.now
        let reply = try harness.ask("Ask FuelBoard to tell me about diesel")
        #expect(ContinuousClock.now - start < .milliseconds(500))
        #expect(reply.code == .failure)
        #expect(reply.dialog == "Sorry, the fuel facts service isn't running right now. Please try again later.")
        service.resume()
        #expect(service.wait { $0.registrations >= 2 })
        #expect(try harness.ask("Ask FuelBoard to tell me about diesel").code == .success)
    }

    @Test func service_expiredWithARequestInFlight_answersItWithASpokenFailure() throws {
        let harness = try PluginHarness(deadline: .seconds(5))
        defer { harness.stop() }
        let release = DispatchSemaphore(value: 0)
        let hang = IntentDefinition("Hang", phrases: ["[ask] {app} [to] hang"]) { _ in
            _ = release.wait(timeout: .now() + 5)
            return .success("too late")
        }
        try harness.start("hanger", [hang])
        defer { release.signal() }
        let start = ContinuousClock.now
        let reply = try harness.ask("Ask FuelBoard to hang")
        #expect(ContinuousClock.now - start < .seconds(2))
        #expect(reply.code == .failure)
        #expect(reply.dialog == "Sorry, the hanger service stopped before it could answer. Please try again.")
    }

    @Test func service_whenKilled_isGoneAndAsksFailAtOnce() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        let service = try harness.start("fuel-facts", [TestIntents.fuelFact()])
        service.kill()
        #expect(try harness.waitForListing { $0.first?.instances.isEmpty == true })
        let reply = try harness.ask("Ask FuelBoard to tell me about diesel")
        #expect(reply.code == .failure)
        #expect(reply.dialog.contains("isn't running"))
    }

    @Test func router_whenRestarted_servicesRegisterAgainByThemselves() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        let service = try harness.start("fuel-facts", [TestIntents.fuelFact()])
        try harness.restartRouter()
        #expect(service.wait { $0.registrations >= 2 })
        #expect(try harness.waitForListing { $0.first?.instances.count == 1 })
        #expect(try harness.ask("Ask FuelBoard to tell me about diesel").dialog == "B7 is a fuel.")
    }

    @Test func replicas_ofOneService_shareTheLoad() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        try harness.start("fuel-facts", [TestIntents.fuelFact(instance: "a")], instance: "a")
        try harness.start("fuel-facts", [TestIntents.fuelFact(instance: "b")], instance: "b")
        var served: [String: Int] = [:]
        for _ in 0 ..< 10 {
            served[try harness.ask("Ask FuelBoard to tell me about diesel").value ?? "-", default: 0] += 1
        }
        #expect(served == ["a": 5, "b": 5])
    }

    @Test func register_anIntentNameOwnedByAnotherService_isRefused() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        try harness.start("fuel-facts", [TestIntents.fuelFact()])
        let rival = try harness.start("rival", [TestIntents.fuelFact()], waitForRegistration: false)
        #expect(rival.wait { $0.refusal != nil })
        #expect(rival.status.refusal?.code == "conflict")
        #expect(rival.status.refusal?.reason == "intent FuelFact is already registered by service fuel-facts")
        #expect(try harness.ask("Ask FuelBoard to tell me about diesel").service == "fuel-facts")
    }

    @Test func register_aPhraseThatMeansAnotherIntent_isRefused() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        try harness.start("fuel-facts", [TestIntents.fuelFact()])
        let copycat = IntentDefinition("Copycat", phrases: ["ask {app} to tell me about diesel"]) { _ in .success("x") }
        let rival = try harness.start("rival", [copycat], waitForRegistration: false)
        #expect(rival.wait { $0.refusal != nil })
        #expect(rival.status.refusal?.reason.contains("already means intent FuelFact of service fuel-facts") == true)
        let builtIn = IntentDefinition("Cheap", phrases: ["ask {app} for the cheapest diesel near me"]) { _ in
            .success()
        }
        let hijacker = try harness.start("hijacker", [builtIn], waitForRegistration: false)
        #expect(hijacker.wait { $0.refusal != nil })
        #expect(hijacker.status.refusal?.reason.contains("built-in intent CheapestFuel") == true)
    }

    @Test func register_aPhraseWithoutTheAppName_isRefusedAsBadRequest() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        let bad = IntentDefinition("NoApp", phrases: ["tell me a joke"]) { _ in .success() }
        let service = try harness.start("jokes", [bad], waitForRegistration: false)
        #expect(service.wait { $0.refusal != nil })
        #expect(service.status.refusal?.code == "bad_request")
        #expect(service.status.refusal?.reason.contains("{app}") == true)
    }

    @Test func garbageAndFloods_fromOnePeer_leaveOtherAsksAnswered() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        try harness.start("fuel-facts", [TestIntents.fuelFact()])
        let context = Context()
        let rogue = try Socket(context, .dealer)
        rogue.linger = .zero
        rogue.sendHighWaterMark = 100_000
        try rogue.connect(harness.plugins)
        let heartbeat = try JSONCoding.encode(PluginSignal(type: .heartbeat))
        for index in 0 ..< 20_000 {
            try rogue.send(index % 2 == 0 ? Data("not json {{{".utf8) : heartbeat, dontWait: true)
        }
        let start = ContinuousClock.now
        for _ in 0 ..< 5 {
            #expect(try harness.ask("Ask FuelBoard to tell me about diesel").dialog == "B7 is a fuel.")
        }
        #expect(ContinuousClock.now - start < .seconds(1))
        rogue.close()
    }

    @Test func run_forAPluginIntent_runsItDirectly() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        try harness.start("fuel-facts", [TestIntents.fuelFact()])
        let reply = try harness.client.call(.assistantRun, AssistantRunRequest(
            user: "u1", intent: "FuelFact", parameters: ["fuel": .string("B7")]), as: AssistantReply.self)
        #expect(reply.dialog == "B7 is a fuel.")
    }

    /// An unknown intent's refusal listed only the built-in intents (QA): the plug-ins' are named too.
    @Test func run_ofAnUnknownIntent_namesThePluginIntentsToo() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        try harness.start("fuel-facts", [TestIntents.fuelFact()])
        do {
            _ = try harness.client.call(.assistantRun, AssistantRunRequest(user: "u1", intent: "NoSuchIntent"),
                                        as: AssistantReply.self)
            Issue.record("an unknown intent ran")
        } catch {
            #expect(error.code == .badRequest, "\(error.message)")
            #expect(error.message.contains("CheapestFuel") && error.message.hasSuffix("; plug-in intents: FuelFact"),
                    "\(error.message)")
        }
    }

    /// assistant.run checks a plug-in intent's parameters as it checks a built-in's: they went to
    /// the service unchecked (a name it does not take, a number for a fuel).
    @Test func run_forAPluginIntent_refusesParametersItDoesNotTake() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        try harness.start("fuel-facts", [TestIntents.fuelFact()])
        let refused: [([String: JSONValue], String)] = [
            (["fuel": .string("B7"), "colour": .string("red")], #"FuelFact takes no parameter "colour" (it takes: fuel)"#),
            (["fuel": .number(7)], "FuelFact: fuel must be text"),
            (["fuel": .string("hydrogen")], "FuelFact: fuel must be one of E10, B7"),
        ]
        for (parameters, message) in refused {
            do {
                _ = try harness.client.call(.assistantRun, AssistantRunRequest(user: "u1", intent: "FuelFact",
                                                                               parameters: parameters),
                                            as: AssistantReply.self)
                Issue.record("accepted \(parameters)")
            } catch {
                #expect(error.code == .badRequest && error.message == message, "\(error.message)")
            }
        }
        let bySynonym = try harness.client.call(.assistantRun, AssistantRunRequest(
            user: "u1", intent: "FuelFact", parameters: ["fuel": .string("Diesel")]), as: AssistantReply.self)
        #expect(bySynonym.dialog == "B7 is a fuel.", "a synonym is read as its value, as when said")
    }

    /// While a built-in question waits ("Which fuel?"), a plug-in's phrase is the plug-in's: it
    /// was asked the question again, then "didn't catch that" (a walkthrough as a plug-in author).
    @Test func ask_aPluginPhrase_whileABuiltInQuestionWaits_reachesThePlugin() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        try harness.start("fuel-facts", [TestIntents.fuelFact()])
        let question = try harness.ask("Ask FuelBoard for the cheapest fuel near me")
        #expect(question.code == .needsValue)
        let fact = try harness.ask("Ask FuelBoard to tell me about petrol", session: try #require(question.session) as String)
        #expect(fact.service == "fuel-facts")
        #expect(fact.dialog == "E10 is a fuel.")
        let answer = try harness.ask("diesel", session: question.session)
        #expect(answer.intent == "CheapestFuel", "the question still takes its answer")
    }

    @Test func ask_forABuiltInIntent_isNotTakenByPlugins() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        try harness.start("fuel-facts", [TestIntents.fuelFact()])
        let reply = try harness.ask("Ask FuelBoard for the cheapest diesel near me")
        #expect(reply.intent == "CheapestFuel")
        #expect(reply.service == nil)
    }
}
