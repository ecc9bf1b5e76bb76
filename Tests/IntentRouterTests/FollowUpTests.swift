import IntentRouter
import Messages
import Testing

/// What a user says after a station search's answer, in the session the answer opened.
struct FollowUpTests {
    let clock = TestClock()
    let engine: DialogueEngine
    let here = Coordinate(lat: 53.78, lng: -1.07)

    init() throws {
        engine = try DialogueEngineTests.engine(clock: clock)
    }

    /// The session of an answer to `utterance`.
    private func answered(_ utterance: String = "Ask FuelBoard for the cheapest diesel near me",
                          location: Coordinate? = nil) throws -> String {
        let decision = engine.ask(user: "u1", utterance: utterance, location: location ?? here)
        #expect(decision.action != nil)
        return try #require(decision.session)
    }

    @Test(arguments: ["take me there", "Take me there please", "directions", "ok great, directions please",
                      "how do I get there", "navigate there", "show me on the map", "yes, take me there"])
    func directions_afterTheCheapest_searchTheSameWithDirections(utterance: String) throws {
        let next = engine.ask(user: "u1", utterance: utterance, session: try answered())
        #expect(next.action == .findCheapest(.b7, directions: true))
        #expect(next.intent == .directionsToCheapestFuel)
        #expect(next.location == here, "the first ask's location carries over")
    }

    @Test func directions_afterTheNearest_goToTheNearest() throws {
        let session = try answered("Ask FuelBoard where is the nearest petrol station")
        let next = engine.ask(user: "u1", utterance: "take me there", session: session)
        #expect(next.action == .findNearest(.e10, directions: true))
    }

    @Test(arguments: [("what about petrol", FuelCode.e10), ("and premium unleaded?", .e5), ("how about super diesel", .sdv),
                      ("petrol", .e10), ("what about unleaded instead", .e10), ("and for E10", .e10)])
    func anotherFuel_searchesTheSameForIt(utterance: String, fuel: FuelCode) throws {
        let next = engine.ask(user: "u1", utterance: utterance, session: try answered())
        #expect(next.action == .findCheapest(fuel, directions: false))
    }

    @Test func anotherFuel_keepsTheSearchesOwnRadius() throws {
        let session = try answered("Ask FuelBoard for the cheapest diesel within 10 miles")
        let next = engine.ask(user: "u1", utterance: "what about petrol", session: session)
        #expect(next.action == .findCheapest(.e10, directions: false, within: .miles(10)))
    }

    @Test(arguments: [("what about within 10 miles", SpokenRadius.miles(10)), ("and within 5 km", .init(5, .km)),
                      ("try 20 miles", .miles(20)), ("within 15 miles then", .miles(15))])
    func anotherRadius_searchesThatFar_once(utterance: String, radius: SpokenRadius) throws {
        let next = engine.ask(user: "u1", utterance: utterance, session: try answered())
        #expect(next.action == .findCheapest(.b7, directions: false, within: radius))
    }

    @Test func aRadiusOutOfRange_isExplained_andTheConversationStays() throws {
        let session = try answered()
        let next = engine.ask(user: "u1", utterance: "what about within 500 miles", session: session)
        #expect(next.prompt?.outcome == .radiusOutOfRange)
        #expect(next.session == session)
        let corrected = engine.ask(user: "u1", utterance: "within 10 miles then", session: session)
        #expect(corrected.action == .findCheapest(.b7, directions: false, within: .miles(10)))
    }

    /// A new search asking too far is refused, and the search stays to be followed up: "within 20
    /// miles then" was "didn't catch that" (walkthrough).
    @Test func aNewSearchTooFar_isRefused_andTheSearchCanBeFollowedUp() throws {
        let refused = engine.ask(user: "u1", utterance: "Ask FuelBoard for the cheapest diesel within 60 miles",
                                 location: here)
        #expect(refused.prompt?.outcome == .radiusOutOfRange)
        let session = try #require(refused.session)
        let corrected = engine.ask(user: "u1", utterance: "within 20 miles then", session: session)
        #expect(corrected.action == .findCheapest(.b7, directions: false, within: .miles(20)))
        #expect(corrected.location == here)
        let again = engine.ask(user: "u1", utterance: "Ask FuelBoard for the nearest diesel within 100 km", location: here)
        #expect(engine.ask(user: "u1", utterance: "what about petrol", session: try #require(again.session) as String).action
            == .findNearest(.e10, directions: false), "the refused radius is not kept")
        let grouped = engine.ask(user: "u1", utterance: "Ask FuelBoard for the cheapest diesel within 10,000 miles",
                                 location: here)
        #expect(grouped.prompt?.outcome == .radiusOutOfRange, "a number written with a thousands separator")
        let noFuel = engine.ask(user: "u1", utterance: "Ask FuelBoard for the cheapest fuel within 60 miles", location: here)
        #expect(noFuel.prompt?.outcome == .radiusOutOfRange && noFuel.session == nil, "no search to follow up yet")
    }

    /// A bare number is read in the user's unit when handled: refused then, the conversation it
    /// came from is put back (the answer, or the search without the number).
    @Test func aBareRadius_carriesTheFollowUpToPutBackIfRefused() throws {
        let session = try answered()
        let held = try #require(engine.sessions.find(session, user: "u1"))
        let bare = engine.ask(user: "u1", utterance: "within 60", session: session)
        #expect(bare.action == .findCheapest(.b7, directions: false, within: SpokenRadius(60, nil)))
        #expect(bare.followUpIfRefused?.id == session && bare.followUpIfRefused?.awaiting == held.awaiting)
        let newSearch = engine.ask(user: "u1", utterance: "Ask FuelBoard for the cheapest diesel within 60", location: here)
        let putBack = try #require(newSearch.followUpIfRefused)
        #expect(putBack.id == newSearch.session)
        #expect(putBack.awaiting == .followUp(search: .cheapestFuel, fuel: .b7, within: nil))
        #expect(engine.ask(user: "u1", utterance: "Ask FuelBoard for the cheapest diesel within 6 miles", location: here)
            .followUpIfRefused == nil, "a radius with its unit was checked already")
    }

    @Test(arguments: ["and the nearest?", "what about the closest one", "which is the nearest"])
    func theNearest_afterTheCheapest(utterance: String) throws {
        let next = engine.ask(user: "u1", utterance: utterance, session: try answered())
        #expect(next.action == .findNearest(.b7, directions: false))
    }

    @Test func theCheapest_afterTheNearest() throws {
        let session = try answered("Ask FuelBoard for the nearest diesel")
        let next = engine.ask(user: "u1", utterance: "and the cheapest?", session: session)
        #expect(next.action == .findCheapest(.b7, directions: false))
    }

    @Test func followUps_chain() throws {
        let first = engine.ask(user: "u1", utterance: "what about petrol", session: try answered())
        let second = engine.ask(user: "u1", utterance: "take me there", session: try #require(first.session) as String)
        #expect(second.action == .findCheapest(.e10, directions: true))
        #expect(engine.sessions.count == 1, "each follow-up closes the session it answered")
    }

    @Test func aWholeRequest_isThatRequest() throws {
        let next = engine.ask(user: "u1", utterance: "Ask FuelBoard to use kilometres", session: try answered())
        #expect(next.action == .setUnit(.set(.km)))
        #expect(next.session == nil)
    }

    @Test func thanks_isWelcomed_andEnds() throws {
        let session = try answered()
        let next = engine.ask(user: "u1", utterance: "thanks", session: session)
        #expect(next.prompt == Prompt(code: .success, outcome: .welcome))
        #expect(engine.sessions.find(session, user: "u1") == nil)
    }

    /// "Further away?" ended the conversation, so "take me there" then was not understood
    /// either (conversation walkthrough): the answer stays open to follow-ups after one miss.
    @Test func somethingElse_isNotUnderstood_andTheAnswerCanStillBeFollowedUp() throws {
        let session = try answered()
        let next = engine.ask(user: "u1", utterance: "what is the weather like", session: session)
        #expect(next.prompt == Prompt(code: .failure, outcome: .notUnderstood))
        #expect(next.session == session)
        let then = engine.ask(user: "u1", utterance: "take me there", session: session)
        #expect(then.action == .findCheapest(.b7, directions: true))
    }

    /// Corrections and short questions drivers say after an answer (re-check walkthrough).
    @Test(arguments: [("no, I meant petrol", Action.findCheapest(.e10, directions: false)),
                      ("I meant petrol", .findCheapest(.e10, directions: false)),
                      ("actually petrol", .findCheapest(.e10, directions: false)),
                      ("petrol instead", .findCheapest(.e10, directions: false)),
                      ("make that petrol", .findCheapest(.e10, directions: false)),
                      ("nearest?", .findNearest(.b7, directions: false)),
                      ("anything closer?", .findNearest(.b7, directions: false)),
                      ("closer", .findNearest(.b7, directions: false)),
                      ("cheapest one", .findCheapest(.b7, directions: false))])
    func aCorrectionOrShortQuestion_buildsOnTheAnswer(utterance: String, action: Action) throws {
        let next = engine.ask(user: "u1", utterance: utterance, session: try answered())
        #expect(next.action == action, "\(utterance)")
    }

    @Test func withinABareNumberNoUnitCouldMakeARadius_isRefused_andTheAnswerStaysOpen() throws {
        let session = try answered()
        let refusal = engine.ask(user: "u1", utterance: "what about within 100", session: session)
        #expect(refusal.prompt?.outcome == .radiusOutOfRange && refusal.session == session)
        #expect(engine.ask(user: "u1", utterance: "what about within 20 miles", session: session).action
            == .findCheapest(.b7, directions: false, within: .miles(20)))
    }

    @Test(arguments: [("further?", 10.0), ("search further", 10), ("look further away", 10), ("widen the search", 10),
                      ("what about a bigger area", 10)])
    func further_afterNothingInRange_searchesTwiceAsFar(utterance: String, miles: Double) throws {
        let session = try answered()
        engine.sessions.remember(RenderRequest(outcome: .nothingInRange, fuel: "B7", radiusMiles: 5, unit: .miles),
                                 session: session, user: "u1")
        let next = engine.ask(user: "u1", utterance: utterance, session: session)
        #expect(next.action == .findCheapest(.b7, directions: false, within: .miles(miles)), "\(utterance)")
    }

    /// At the limit "further" searched 100 miles and was refused with "the radius has to be between
    /// 1 and 50 miles", blaming a user who never gave one (QA): it searches the limit again, and
    /// the answer says that is as far as the assistant looks.
    @Test func further_upToTheLimit_thenTheLimitAgain_andAfterAStationIsNotUnderstood() throws {
        let session = try answered()
        engine.sessions.remember(RenderRequest(outcome: .nothingInRange, fuel: "B7", radiusMiles: 40, unit: .miles),
                                 session: session, user: "u1")
        let clamped = engine.ask(user: "u1", utterance: "further", session: session)
        #expect(clamped.action == .findCheapest(.b7, directions: false, within: .miles(50)), "40 miles: up to the limit")
        let atTheLimit = try answered()
        engine.sessions.remember(RenderRequest(outcome: .nothingInRange, fuel: "B7", radiusMiles: 50, unit: .miles),
                                 session: atTheLimit, user: "u1")
        let again = engine.ask(user: "u1", utterance: "further", session: atTheLimit)
        #expect(again.action == .findCheapest(.b7, directions: false, within: .miles(50)), "\(again)")
        let other = try answered()
        #expect(engine.ask(user: "u1", utterance: "further", session: other).prompt?.outcome == .notUnderstood)
    }

    /// A fuel nobody sells here, asked after an answer, is refused and the answer stays to be
    /// followed up (the session ended, and "what about super" then was "session expired").
    @Test func aFollowUpForAnUnsupportedFuel_isRefused_andTheConversationStays() throws {
        let session = try answered()
        let refused = engine.ask(user: "u1", utterance: "what about hydrogen", session: session)
        #expect(refused.prompt?.outcome == .unsupportedFuel && refused.session == session, "\(refused)")
        let next = engine.ask(user: "u1", utterance: "what about petrol", session: session)
        #expect(next.action == .findCheapest(.e10, directions: false), "\(next)")
    }

    /// In kilometres too: 64 km doubles to the limit, 80.46 km (80.47 was over 50 miles, refused),
    /// and from there "further" searches the limit again.
    @Test func further_inKilometres_reachesTheLimit_thenTheLimitAgain() throws {
        let session = try answered()
        engine.sessions.remember(RenderRequest(outcome: .nothingInRange, fuel: "B7", radiusMiles: 39.77, unit: .km),
                                 session: session, user: "u1")
        let clamped = engine.ask(user: "u1", utterance: "further", session: session)
        #expect(clamped.action == .findCheapest(.b7, directions: false, within: .km(80.46)), "\(clamped)")
        let atTheLimit = try answered()
        engine.sessions.remember(RenderRequest(outcome: .nothingInRange, fuel: "B7", radiusMiles: 80.46 / 1.609344,
                                               unit: .km), session: atTheLimit, user: "u1")
        let again = engine.ask(user: "u1", utterance: "further", session: atTheLimit)
        #expect(again.action == .findCheapest(.b7, directions: false, within: .km(80.46)), "\(again)")
    }

    /// Inside a conversation a whole request needs no app name: "nearest diesel" after an answer
    /// was "didn't catch that" (re-check walkthrough).
    @Test(arguments: [("take me to the nearest petrol station", Action.findNearest(.e10, directions: true)),
                      ("where can I get petrol", .findCheapest(.e10, directions: false)),
                      ("use kilometres", .setUnit(.set(.km)))])
    func aWholeRequestWithoutTheAppName_isThatRequest(utterance: String, action: Action) throws {
        let session = try answered()
        let next = engine.ask(user: "u1", utterance: utterance, session: session)
        #expect(next.action == action, "\(utterance)")
        #expect(engine.sessions.find(session, user: "u1") == nil, "the answer's session is closed: \(utterance)")
    }

    /// Inside a question, a request for the question asked again, or "and" alone (help, once the
    /// app's name is put in front), is a miss, not a new start (which would loop for ever).
    @Test func insideAQuestion_theSameRequestAgain_isAMiss() throws {
        let question = engine.ask(user: "u1", utterance: "Ask FuelBoard for the cheapest fuel near me", location: here)
        let session = try #require(question.session)
        let first = engine.ask(user: "u1", utterance: "I need fuel", session: session)
        #expect(first.prompt == Prompt(code: .needsValue, outcome: .askFuel) && first.session == session)
        let second = engine.ask(user: "u1", utterance: "I need fuel", session: session)
        #expect(second.prompt?.outcome == .notUnderstood && second.session == nil)
        let afterAnswer = try answered()
        #expect(engine.ask(user: "u1", utterance: "and", session: afterAnswer).prompt?.outcome == .notUnderstood)
    }

    @Test(arguments: ["and premium?", "what about super", "super then"])
    func premiumAfterDiesel_isPremiumDiesel(utterance: String) throws {
        let next = engine.ask(user: "u1", utterance: utterance, session: try answered())
        #expect(next.action == .findCheapest(.sdv, directions: false), "\(utterance)")
        let afterPetrol = try answered("Ask FuelBoard for the cheapest petrol near me")
        #expect(engine.ask(user: "u1", utterance: utterance, session: afterPetrol).action
            == .findCheapest(.e5, directions: false), "\(utterance)")
    }

    @Test func twoMisses_endTheConversation() throws {
        let session = try answered()
        _ = engine.ask(user: "u1", utterance: "what is the weather like", session: session)
        let second = engine.ask(user: "u1", utterance: "bananas", session: session)
        #expect(second.prompt == Prompt(code: .failure, outcome: .notUnderstood))
        #expect(second.session == nil)
        #expect(engine.sessions.find(session, user: "u1") == nil)
    }

    @Test(arguments: ["say that again", "repeat that", "sorry, what did you say?", "pardon?", "come again",
                      "could you repeat that please", "sorry I didn't catch that"])
    func sayAgain_repeatsTheAnswer_andItCanStillBeFollowedUp(utterance: String) throws {
        let session = try answered()
        let station = StationSummary(id: "tesco/1", retailer: "tesco", brand: "Tesco", name: "Tesco Selby",
                                     address: "Bawtry Road", postcode: "YO8 8NA", lat: 53.77, lng: -1.06)
        let answer = RenderRequest(outcome: .found, fuel: "B7", station: station, pricePence: 139.9, distanceMiles: 2)
        engine.sessions.remember(answer, session: session, user: "u1")
        let next = engine.ask(user: "u1", utterance: utterance, session: session)
        #expect(next.action == .sayAgain(answer))
        #expect(next.session == session)
        #expect(engine.ask(user: "u1", utterance: "take me there", session: session).action
            == .directionsTo(answer))
    }

    @Test func sayAgain_beforeAnythingWasAnswered_isNotUnderstood() throws {
        let session = try answered()  // the search's answer not remembered yet (it failed, say)
        let next = engine.ask(user: "u1", utterance: "say that again", session: session)
        #expect(next.action == nil && next.prompt == Prompt(code: .failure, outcome: .notUnderstood))
        #expect(next.session == session, "one miss keeps the answer open")
    }

    @Test func afterTheSessionExpired_aFollowUpIsToldSo() throws {
        let session = try answered()
        clock.advance(by: .seconds(31))
        let next = engine.ask(user: "u1", utterance: "take me there", session: session)
        #expect(next.prompt?.outcome == .sessionExpired)
    }

    @Test func answers_onlyFollowUps_soAPluginPhraseCanPass() throws {
        let id = try answered()
        let session = try #require(engine.sessions.find(id, user: "u1"))
        let normalizer = engine.recognizer.normalizer
        #expect(engine.answers(normalizer.normalize("take me there"), in: session))
        #expect(engine.answers(normalizer.normalize("what about petrol"), in: session))
        #expect(!engine.answers(normalizer.normalize("is the car wash open"), in: session))
        let question = engine.ask(user: "u2", utterance: "Ask FuelBoard for the cheapest fuel near me")
        let questionID = try #require(question.session)
        let asking = try #require(engine.sessions.find(questionID, user: "u2"))
        #expect(engine.answers(normalizer.normalize("diesel please"), in: asking))
        #expect(!engine.answers(normalizer.normalize("is the car wash open"), in: asking),
                "not an answer: a plug-in's phrase may take it")
    }

    @Test func takeMeThere_afterAnAnsweredStation_givesDirectionsToIt_withoutSearching() throws {
        let session = try answered()
        let station = StationSummary(id: "tesco/1", retailer: "tesco", brand: "Tesco", name: "Tesco Selby",
                                     address: "Bawtry Road", postcode: "YO8 8NA", lat: 53.77, lng: -1.06)
        let render = RenderRequest(outcome: .found, fuel: "B7", station: station, pricePence: 139.9, distanceMiles: 2)
        engine.sessions.remember(render, session: session, user: "u1")
        let next = engine.ask(user: "u1", utterance: "take me there", session: session)
        #expect(next.action == .directionsTo(render))
        #expect(next.intent == .directionsToCheapestFuel)
        #expect(next.session != nil && next.session != session, "the directions can be followed up too")
    }

    @Test func afterDirections_anotherFuel_isAQuestionAgain() throws {
        let route = engine.ask(user: "u1", utterance: "take me there", session: try answered())
        let petrol = engine.ask(user: "u1", utterance: "and for petrol?", session: try #require(route.session) as String)
        #expect(petrol.action == .findCheapest(.e10, directions: false))
    }
}
