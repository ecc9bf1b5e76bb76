import Foundation
import IntentRouter
import Messages
import ServiceKit
import ServiceTesting
import Testing
import ZeroMQ

/// The router in-process with its backends down or hung: every ask still gets a spoken answer
/// within the deadline, and asks never wait on each other.
struct RouterServiceTests {
    static let selby = Coordinate(lat: 53.78, lng: -1.07)

    @Test func ask_whenEveryBackendIsDown_speaksThePricesFailureWithinTheDeadline() throws {
        let down = try unservedEndpoint()
        let router = try RouterHarness.start(location: down, lookup: down, dialog: down)
        defer { router.stop() }
        let client = try RouterHarness.client(router)
        let start = ContinuousClock.now
        let reply = try client.call(.assistantAsk, AssistantAskRequest(
            user: "u1", utterance: "Ask FuelBoard for the cheapest diesel near me", location: Self.selby),
            as: AssistantReply.self)
        #expect(ContinuousClock.now - start < .seconds(2))
        #expect(reply.code == .failure)
        #expect(reply.outcome == .pricesUnavailable)
        #expect(reply.dialog.hasPrefix("I can't reach fuel prices right now"))
        #expect(reply.intent == "CheapestFuel")
    }

    @Test func ask_afterABackendWasFoundDown_failsFastWithoutWaitingAgain() throws {
        let down = try unservedEndpoint()
        let router = try RouterHarness.start(location: down, lookup: down, dialog: down)
        defer { router.stop() }
        let client = try RouterHarness.client(router)
        let ask = AssistantAskRequest(user: "u1", utterance: "Ask FuelBoard for the cheapest diesel near me",
                                      location: Self.selby)
        _ = try client.call(.assistantAsk, ask, as: AssistantReply.self)
        let start = ContinuousClock.now
        let second = try client.call(.assistantAsk, ask, as: AssistantReply.self)
        #expect(ContinuousClock.now - start < .milliseconds(200))
        #expect(second.outcome == .pricesUnavailable)
    }

    @Test func backend_afterThreeTimeoutsInARow_isReconnected() throws {
        let silent = try SilentBackend()
        let down = try unservedEndpoint()
        let router = try RouterHarness.start(location: down, lookup: silent.endpoint, dialog: down,
                                             deadline: .milliseconds(300))
        defer { router.stop() }
        let client = try RouterHarness.client(router)
        let ask = AssistantAskRequest(user: "u1", utterance: "Ask FuelBoard for the cheapest diesel near me",
                                      location: Self.selby)
        for _ in 0 ..< 3 { _ = try client.call(.assistantAsk, ask, as: AssistantReply.self) }
        let stats = try client.call(.sysStats, EmptyBody(), as: StatsBody.self)
        #expect(stats.details["backendReconnects"] == .object(["location": .number(0), "lookup": .number(1),
                                                              "dialog": .number(0)]))
    }

    @Test func ask_withoutLocationWhenLocationCacheDown_saysLocationUnavailable() throws {
        let down = try unservedEndpoint()
        let router = try RouterHarness.start(location: down, lookup: down, dialog: down)
        defer { router.stop() }
        let reply = try RouterHarness.client(router).call(.assistantAsk, AssistantAskRequest(
            user: "u1", utterance: "Ask FuelBoard for the cheapest diesel near me"), as: AssistantReply.self)
        #expect(reply.code == .failure)
        #expect(reply.outcome == .locationUnavailable)
    }

    /// Paris, New York, 0,0: told FuelBoard covers the UK, not "nothing within 5 miles", and no
    /// lookup is made.
    @Test(arguments: [Coordinate(lat: 48.8566, lng: 2.3522), Coordinate(lat: 40.7128, lng: -74.006),
                      Coordinate(lat: 0.0001, lng: 0), Coordinate(lat: 50.9513, lng: 1.8587),
                      Coordinate(lat: 53.3498, lng: -6.2603)])
    func ask_fromOutsideTheUK_saysFuelBoardCoversTheUK(point: Coordinate) throws {
        let down = try unservedEndpoint()
        let lookup = try SilentBackend()
        let router = try RouterHarness.start(location: down, lookup: lookup.endpoint, dialog: down)
        defer { router.stop() }
        let reply = try RouterHarness.client(router).call(.assistantAsk, AssistantAskRequest(
            user: "u1", utterance: "Ask FuelBoard for the cheapest diesel near me", location: point),
            as: AssistantReply.self)
        #expect(reply.code == .failure)
        #expect(reply.outcome == .outsideCoverage)
        #expect(reply.dialog == "FuelBoard only has fuel prices for the UK, and you seem to be outside it.")
        #expect(lookup.drain() == 0)
    }

    @Test(arguments: ["Ask FuelBoard to set my search radius to 10 miles", "Ask FuelBoard to use kilometres",
                      "Ask FuelBoard to set my search radius to 10"])
    func aSetting_whenLocationCacheIsDown_saysNothingChanged(utterance: String) throws {
        let down = try unservedEndpoint()
        let router = try RouterHarness.start(location: down, lookup: down, dialog: down)
        defer { router.stop() }
        let reply = try RouterHarness.client(router).call(.assistantAsk, AssistantAskRequest(
            user: "u1", utterance: utterance), as: AssistantReply.self)
        #expect(reply.code == .failure)
        #expect(reply.outcome == .settingsUnavailable)
        #expect(reply.dialog.hasPrefix("I can't reach your saved settings right now, so nothing has changed."),
                "\(reply.dialog)")
    }

    /// "Forget my location", then "yes" to the question: the answer to the yes.
    private static func forgetConfirmed(_ router: InProcessService) throws -> AssistantReply {
        let client = try RouterHarness.client(router)
        let question = try client.call(.assistantAsk, AssistantAskRequest(
            user: "u1", utterance: "Ask FuelBoard to forget my location"), as: AssistantReply.self)
        #expect(question.code == .confirmationRequired)
        return try client.call(.assistantAsk, AssistantAskRequest(user: "u1", utterance: "yes",
                                                                  session: question.session),
                               as: AssistantReply.self)
    }

    @Test func forget_whenLocationCacheIsDown_saysTheLocationCouldNotBeReached() throws {
        let down = try unservedEndpoint()
        let router = try RouterHarness.start(location: down, lookup: down, dialog: down)
        defer { router.stop() }
        let reply = try Self.forgetConfirmed(router)
        #expect(reply.code == .failure)
        #expect(reply.outcome == .locationUnavailable)
        #expect(reply.dialog.hasPrefix("I can't reach your saved location"), "\(reply.dialog)")
    }

    /// Sent but not answered in time, the change may have been made: "nothing has changed"
    /// would be a claim the router cannot know.
    @Test(arguments: ["Ask FuelBoard to set my search radius to 10 miles", "Ask FuelBoard to use kilometres"])
    func aSetting_whenLocationCacheIsSilent_doesNotSayNothingChanged(utterance: String) throws {
        let silent = try SilentBackend()
        let router = try RouterHarness.start(location: silent.endpoint, lookup: silent.endpoint,
                                             dialog: silent.endpoint, deadline: .milliseconds(400))
        defer { router.stop() }
        let reply = try RouterHarness.client(router).call(.assistantAsk, AssistantAskRequest(
            user: "u1", utterance: utterance), as: AssistantReply.self)
        #expect(reply.code == .failure)
        #expect(reply.outcome == .settingsUnconfirmed)
        #expect(!reply.dialog.contains("nothing has changed"), "\(reply.dialog)")
        #expect(reply.dialog.contains("can't tell whether that changed"), "\(reply.dialog)")
        #expect(silent.drain() > 0, "the setting was sent")
    }

    @Test func forget_whenLocationCacheIsSilent_saysItCannotTellWhetherItWasForgotten() throws {
        let silent = try SilentBackend()
        let router = try RouterHarness.start(location: silent.endpoint, lookup: silent.endpoint,
                                             dialog: silent.endpoint, deadline: .milliseconds(400))
        defer { router.stop() }
        let reply = try Self.forgetConfirmed(router)
        #expect(reply.code == .failure)
        #expect(reply.outcome == .forgetUnconfirmed)
        #expect(reply.dialog.hasPrefix("Your saved location took too long to answer"), "\(reply.dialog)")
        #expect(silent.drain() > 0, "the forget was sent")
    }

    @Test func ask_whenBackendsHang_answersByTheDeadlineNotLater() throws {
        let silent = try SilentBackend()
        let deadline = Duration.milliseconds(600)
        let router = try RouterHarness.start(location: silent.endpoint, lookup: silent.endpoint,
                                             dialog: silent.endpoint, deadline: deadline)
        defer { router.stop() }
        let client = try RouterHarness.client(router)
        let start = ContinuousClock.now
        let reply = try client.call(.assistantAsk, AssistantAskRequest(
            user: "u1", utterance: "Ask FuelBoard for the cheapest diesel near me", location: Self.selby),
            as: AssistantReply.self)
        let elapsed = ContinuousClock.now - start
        #expect(elapsed < deadline + .milliseconds(150), "answered after \(elapsed)")
        #expect(elapsed > deadline / 2, "it did wait for the hung backend")
        #expect(reply.code == .failure)
        #expect(reply.dialog.hasPrefix("I can't reach"))
        #expect(silent.drain() > 0)
    }

    @Test func manyAsks_whileBackendsHang_areAllInFlightAtOnce() throws {
        let silent = try SilentBackend()
        let deadline = Duration.milliseconds(500)
        let router = try RouterHarness.start(location: silent.endpoint, lookup: silent.endpoint,
                                             dialog: silent.endpoint, deadline: deadline)
        defer { router.stop() }
        let socket = try Socket(Context(), .dealer)
        socket.receiveTimeout = .seconds(5)
        try socket.connect(router.endpoint)
        let count = 50
        let start = ContinuousClock.now
        for index in 0 ..< count {
            let utterance = "Ask FuelBoard for the cheapest petrol near me"
            let body = AssistantAskRequest(user: "u\(index)", utterance: utterance, location: Self.selby)
            let request = Request(id: "a\(index)", type: MessageType.assistantAsk.rawValue, body: body)
            try socket.send([Data(), try JSONCoding.encode(request)])
        }
        var answered = Set<String>()
        for _ in 0 ..< count {
            let frames = try socket.receive()
            let reply = try JSONCoding.decode(Reply<AssistantReply>.self, from: frames.last ?? Data())
            #expect(reply.body?.code == .failure)
            if let id = reply.id.stringValue { answered.insert(id) }
        }
        let elapsed = ContinuousClock.now - start
        #expect(answered.count == count)
        #expect(elapsed < deadline * 2, "\(count) hung asks took \(elapsed): they waited on each other")
    }

    @Test func ask_whenNotUnderstood_saysSoAndGivesHelpEvenWithRendererDown() throws {
        let down = try unservedEndpoint()
        let router = try RouterHarness.start(location: down, lookup: down, dialog: down)
        defer { router.stop() }
        let reply = try RouterHarness.client(router).call(.assistantAsk, AssistantAskRequest(
            user: "u1", utterance: "What's the weather like"), as: AssistantReply.self)
        #expect(reply.code == .failure)
        #expect(reply.outcome == .notUnderstood)
        #expect(reply.dialog.hasPrefix("Sorry, I didn't catch that. You can ask me for the cheapest fuel"))
        #expect(reply.intent == nil)
    }

    @Test func ask_withoutTheAppName_saysHowToAsk_andCallsNoBackend() throws {
        let down = try unservedEndpoint()
        let router = try RouterHarness.start(location: down, lookup: down, dialog: down)
        defer { router.stop() }
        let reply = try RouterHarness.client(router).call(.assistantAsk, AssistantAskRequest(
            user: "u1", utterance: "cheapest diesel near me", location: Self.selby), as: AssistantReply.self)
        #expect(reply.code == .failure)
        #expect(reply.outcome == .appNotNamed)
        #expect(reply.dialog.contains("“Ask FuelBoard for the cheapest diesel near me”"))
        #expect(reply.session == nil)
    }

    @Test func ask_whenFuelMissing_returnsASessionThatTheNextAskAnswers() throws {
        let down = try unservedEndpoint()
        let router = try RouterHarness.start(location: down, lookup: down, dialog: down)
        defer { router.stop() }
        let client = try RouterHarness.client(router)
        let question = try client.call(.assistantAsk, AssistantAskRequest(
            user: "u1", utterance: "Ask FuelBoard for the cheapest fuel near me", location: Self.selby),
            as: AssistantReply.self)
        #expect(question.code == .needsValue)
        #expect(question.needs == "fuel")
        #expect(question.dialog == "Which fuel: unleaded, premium, diesel or super diesel?")
        let session = try #require(question.session)
        let answer = try client.call(.assistantAsk,
                                     AssistantAskRequest(user: "u1", utterance: "diesel", session: session),
                                     as: AssistantReply.self)
        #expect(answer.intent == "CheapestFuel")
        #expect(answer.parameters == ["fuel": .string("B7")])
        #expect(answer.outcome == .pricesUnavailable, "the answer went on to the lookup with the first ask's location")
        #expect(answer.session == nil, "a failed search has nothing to follow up")
    }

    @Test func run_withoutFuel_usesUnleaded() throws {
        let down = try unservedEndpoint()
        let router = try RouterHarness.start(location: down, lookup: down, dialog: down)
        defer { router.stop() }
        let reply = try RouterHarness.client(router).call(.assistantRun, AssistantRunRequest(
            user: "u1", intent: "CheapestFuel", location: Self.selby), as: AssistantReply.self)
        #expect(reply.parameters == ["fuel": .string("E10")])
        #expect(reply.intent == "CheapestFuel")
    }

    @Test func badRequests_getBadRequestErrors() throws {
        let down = try unservedEndpoint()
        let router = try RouterHarness.start(location: down, lookup: down, dialog: down)
        defer { router.stop() }
        let client = try RouterHarness.client(router)
        let bad: [(MessageType, JSONValue)] = [
            (.assistantAsk, .object(["utterance": .string("Ask FuelBoard for help")])),
            (.assistantAsk, .object(["user": .string(""), "utterance": .string("Ask FuelBoard for help")])),
            (.assistantAsk, .object(["user": .string("u1"), "utterance": .string("   ")])),
            (.assistantAsk, .object(["user": .string("u1"), "utterance": .string("hi"),
                                     "location": .object(["lat": .number(91), "lng": .number(0)])])),
            (.assistantRun, .object(["user": .string("u1"), "intent": .string("OrderPizza")])),
            (.assistantRun, .object(["user": .string("u1"), "intent": .string("SetSearchRadius"),
                                     "parameters": .object(["miles": .string("far")])])),
        ]
        for (type, body) in bad {
            do {
                _ = try client.call(type, body, as: AssistantReply.self)
                Issue.record("accepted \(body)")
            } catch {
                #expect(error.code == .badRequest, "\(body)")
            }
        }
    }

    @Test func stats_countAsksByIntentAndCodeAndBackendFailures() throws {
        let silent = try SilentBackend()
        let down = try unservedEndpoint()
        let router = try RouterHarness.start(location: down, lookup: silent.endpoint, dialog: down,
                                             deadline: .milliseconds(300))
        defer { router.stop() }
        let client = try RouterHarness.client(router)
        let asks = [
            AssistantAskRequest(user: "u1", utterance: "Ask FuelBoard for the cheapest diesel near me",
                                location: Self.selby),
            AssistantAskRequest(user: "u1", utterance: "Ask FuelBoard to set my search radius"),
        ]
        for ask in asks { _ = try client.call(.assistantAsk, ask, as: AssistantReply.self) }
        let stats = try client.call(.sysStats, EmptyBody(), as: StatsBody.self)
        #expect(stats.details["asksByIntent"] == .object(["CheapestFuel": .number(1), "SetSearchRadius": .number(1)]))
        #expect(stats.details["asksByCode"] == .object(["failure": .number(1), "needsValue": .number(1)]))
        guard case .object(let timeouts)? = stats.details["backendTimeouts"] else {
            Issue.record("no backendTimeouts")
            return
        }
        #expect(timeouts["lookup"] == .number(1))
        #expect(stats.details["sessionsOpen"] == .number(1))
    }
}
