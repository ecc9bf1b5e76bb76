import IntentRouter
import Messages
import Testing

/// The resolve and confirm stages and the sessions between questions and answers.
struct DialogueEngineTests {
    let clock = TestClock()
    let engine: DialogueEngine
    let here = Coordinate(lat: 53.78, lng: -1.07)

    init() throws {
        engine = try Self.engine(clock: clock)
    }

    /// An engine with 30 s sessions on `clock`.
    static func engine(clock: TestClock) throws -> DialogueEngine {
        DialogueEngine(recognizer: try IntentRecognizer(),
                       sessions: SessionStore(timeToLive: .seconds(30), now: { clock.now }))
    }

    @Test func ask_whenFuelGiven_handlesAtOnce_withASessionForFollowUps() {
        let decision = engine.ask(user: "u1", utterance: "Ask FuelBoard for the cheapest diesel near me",
                                  location: here)
        #expect(decision.action == .findCheapest(.b7, directions: false))
        #expect(decision.session != nil)
        #expect(decision.prompt == nil, "nothing is asked: the session only carries follow-ups")
        #expect(decision.location == here)
        #expect(decision.parameters == ["fuel": .string("B7")])
    }

    @Test func ask_whenFuelMissing_asksForItThenTheAnswerInTheSameSessionHandles() {
        let question = engine.ask(user: "u1", utterance: "Ask FuelBoard for directions to the cheapest fuel near me",
                                  location: here)
        #expect(question.prompt == Prompt(code: .needsValue, outcome: .askFuel))
        #expect(question.needs == "fuel")
        #expect(question.intent == .directionsToCheapestFuel)
        let session = try! #require(question.session)
        let answer = engine.ask(user: "u1", utterance: "diesel please", session: session)
        #expect(answer.action == .findCheapest(.b7, directions: true))
        #expect(answer.location == here, "the location of the first utterance carries over")
        #expect(answer.session != session, "the question's session ends; the answer's follow-ups get another")
        #expect(engine.sessions.find(session, user: "u1") == nil)
        #expect(engine.sessions.count == 1)
    }

    @Test func ask_whenFuelUnsupported_explainsWithTheWord() {
        let decision = engine.ask(user: "u1", utterance: "Ask FuelBoard for the cheapest hydrogen near me")
        #expect(decision.prompt == Prompt(code: .failure, outcome: .unsupportedFuel, word: "hydrogen"))
        #expect(decision.session == nil)
    }

    /// "LPG" to "Which fuel?" ended the conversation, and "diesel then" was not understood
    /// (conversation walkthrough): the question stays open for a fuel it has prices for.
    @Test func answer_whenUnsupportedFuel_explains_andTheQuestionStaysOpen() throws {
        let question = engine.ask(user: "u1", utterance: "Ask FuelBoard for the cheapest fuel near me", location: here)
        let session = try #require(question.session)
        let answer = engine.ask(user: "u1", utterance: "LPG", session: session)
        #expect(answer.prompt == Prompt(code: .needsValue, outcome: .unsupportedFuel, word: "LPG"))
        #expect(answer.session == session && answer.needs == "fuel")
        let better = engine.ask(user: "u1", utterance: "diesel then", session: session)
        #expect(better.action == .findCheapest(.b7, directions: false))
    }

    @Test(arguments: ["its a diesel", "It's a diesel", "my car takes diesel", "diesel then", "I drive a diesel",
                      "my car runs on diesel"])
    func answer_aFuelSaidAsDriversSayIt_isTheAnswer(_ said: String) throws {
        let question = engine.ask(user: "u1", utterance: "Ask FuelBoard for the cheapest fuel near me", location: here)
        let answer = engine.ask(user: "u1", utterance: said, session: try #require(question.session) as String)
        #expect(answer.action == .findCheapest(.b7, directions: false))
    }

    /// A bare "100" was checked only when handled, after the question had closed: refused with
    /// no session, and "10" then not understood (re-check walkthrough).
    @Test(arguments: ["100", "200", "0"])
    func answer_aBareNumberNoUnitCouldMakeARadius_isRefused_andTheQuestionStaysOpen(_ said: String) throws {
        let question = engine.ask(user: "u1", utterance: "Ask FuelBoard to set my search radius")
        let session = try #require(question.session)
        let answer = engine.ask(user: "u1", utterance: said, session: session)
        #expect(answer.prompt == Prompt(code: .needsValue, outcome: .radiusOutOfRange))
        #expect(answer.session == session)
        #expect(engine.ask(user: "u1", utterance: "10", session: session).action == .setRadius(.set(SpokenRadius(10, nil))))
    }

    @Test func answer_aBareNumberInRangeInKilometres_waitsForTheUsersUnit() throws {
        let question = engine.ask(user: "u1", utterance: "Ask FuelBoard to set my search radius")
        let answer = engine.ask(user: "u1", utterance: "60", session: try #require(question.session) as String)
        #expect(answer.action == .setRadius(.set(SpokenRadius(60, nil))), "60 km is 37 miles")
    }

    @Test func pardon_toAQuestion_asksItAgain_withoutCountingAMiss() throws {
        // "What?" too: it used to count as the first of two misses.
        let question = engine.ask(user: "u1", utterance: "Ask FuelBoard for the cheapest fuel near me", location: here)
        let session = try #require(question.session)
        for said in ["pardon?", "sorry, say that again", "what did you say", "what?", "sorry?"] {
            let again = engine.ask(user: "u1", utterance: said, session: session)
            #expect(again.prompt == Prompt(code: .needsValue, outcome: .askFuel) && again.session == session, "\(said)")
        }
        #expect(engine.ask(user: "u1", utterance: "diesel", session: session).action == .findCheapest(.b7, directions: false))
    }

    @Test func answer_aMisheardFuelWord_isThatFuel() throws {
        let question = engine.ask(user: "u1", utterance: "Ask FuelBoard for the cheapest fuel near me", location: here)
        let answer = engine.ask(user: "u1", utterance: "disel", session: try #require(question.session) as String)
        #expect(answer.action == .findCheapest(.b7, directions: false))
        let other = engine.ask(user: "u1", utterance: "what about unleded", session: try #require(answer.session) as String)
        #expect(other.action == .findCheapest(.e10, directions: false))
    }

    @Test func answer_whenUnsupportedFuelTwice_explainsAndEnds() throws {
        let question = engine.ask(user: "u1", utterance: "Ask FuelBoard for the cheapest fuel near me")
        let session = try #require(question.session)
        _ = engine.ask(user: "u1", utterance: "LPG", session: session)
        let again = engine.ask(user: "u1", utterance: "hydrogen", session: session)
        #expect(again.prompt == Prompt(code: .failure, outcome: .unsupportedFuel, word: "hydrogen"))
        #expect(again.session == nil)
        #expect(engine.sessions.count == 0)
    }

    @Test func answer_whenRadiusOutOfRange_explains_andTheQuestionStaysOpen() throws {
        let question = engine.ask(user: "u1", utterance: "Ask FuelBoard to change my search radius")
        let session = try #require(question.session)
        let answer = engine.ask(user: "u1", utterance: "100 miles", session: session)
        #expect(answer.prompt == Prompt(code: .needsValue, outcome: .radiusOutOfRange, radiusMiles: 100, unit: .miles))
        #expect(answer.session == session && answer.needs == "miles")
        let better = engine.ask(user: "u1", utterance: "20 miles", session: session)
        #expect(better.action == .setRadius(.set(SpokenRadius(20, .miles))))
    }

    @Test func answer_whenNotUnderstoodOnce_asksAgainInTheSameSession() throws {
        let question = engine.ask(user: "u1", utterance: "Ask FuelBoard for the cheapest fuel near me")
        let session = try #require(question.session)
        let again = engine.ask(user: "u1", utterance: "the moon", session: session)
        #expect(again.prompt == Prompt(code: .needsValue, outcome: .askFuel))
        #expect(again.session == session)
        let finally = engine.ask(user: "u1", utterance: "banana", session: session)
        #expect(finally.prompt == Prompt(code: .failure, outcome: .notUnderstood))
        #expect(finally.session == nil)
    }

    @Test func answer_whenAFreshIntentInstead_startsThatIntent() throws {
        let question = engine.ask(user: "u1", utterance: "Ask FuelBoard for the cheapest fuel near me")
        let other = engine.ask(user: "u1", utterance: "Ask FuelBoard to use kilometres",
                               session: try #require(question.session) as String)
        #expect(other.action == .setUnit(.set(.km)))
        #expect(engine.sessions.count == 0)
    }

    @Test func forget_asksForConfirmationAndOnlyYesErases() throws {
        let question = engine.ask(user: "u1", utterance: "Ask FuelBoard to forget my location")
        #expect(question.prompt == Prompt(code: .confirmationRequired, outcome: .confirmForget))
        #expect(question.action == nil)
        let yes = engine.ask(user: "u1", utterance: "Yes, do it", session: try #require(question.session) as String)
        #expect(yes.action == .forgetLocation)
    }

    /// Answers people give to "Which fuel?" beyond the bare word (QA walkthrough: each was asked again).
    @Test(arguments: [("the unleaded one", FuelCode.e10), ("um diesel I think", .b7), ("regular", .e10),
                      ("normal", .e10), ("diesels", .b7), ("the premium one please", .e5)])
    func answer_whenFuelSaidAsPeopleSayIt_handles(utterance: String, fuel: FuelCode) throws {
        let question = engine.ask(user: "u1", utterance: "Ask FuelBoard for the cheapest fuel near me", location: here)
        let answer = engine.ask(user: "u1", utterance: utterance, session: try #require(question.session) as String)
        #expect(answer.action == .findCheapest(fuel, directions: false), "\(utterance)")
    }

    @Test func ask_whenFuelMissingInASearchWithItsOwnRadius_theAnswerKeepsTheRadius() throws {
        let question = engine.ask(user: "u1", utterance: "Ask FuelBoard for the cheapest fuel within 3 miles",
                                  location: here)
        #expect(question.prompt?.outcome == .askFuel)
        let answer = engine.ask(user: "u1", utterance: "diesel", session: try #require(question.session) as String)
        #expect(answer.action == .findCheapest(.b7, directions: false, within: .miles(3)))
    }

    @Test func thanks_isWelcomed_withoutASession() {
        let decision = engine.ask(user: "u1", utterance: "Thanks FuelBoard")
        #expect(decision.prompt == Prompt(code: .success, outcome: .welcome))
        #expect(decision.intent == .thanks)
        #expect(decision.session == nil)
    }

    @Test func answer_whenTheFuelComesWithARadius_searchesThatFar() throws {
        let question = engine.ask(user: "u1", utterance: "Ask FuelBoard for the cheapest fuel near me", location: here)
        let answer = engine.ask(user: "u1", utterance: "diesel within 10 miles", session: try #require(question.session) as String)
        #expect(answer.action == .findCheapest(.b7, directions: false, within: .miles(10)))
    }

    @Test(arguments: ["yeah go on", "go on then"])
    func forget_whenAnswerIsGoOn_erases(utterance: String) throws {
        let question = engine.ask(user: "u1", utterance: "Ask FuelBoard to forget my location")
        let yes = engine.ask(user: "u1", utterance: utterance, session: try #require(question.session) as String)
        #expect(yes.action == .forgetLocation)
    }

    @Test func forget_whenAnswerIsThanksButNo_keeps() throws {
        let question = engine.ask(user: "u1", utterance: "Ask FuelBoard to forget my location")
        let no = engine.ask(user: "u1", utterance: "thanks but no", session: try #require(question.session) as String)
        #expect(no.prompt?.outcome == .notForgotten)
    }

    @Test func forget_whenAnswerIsNo_cancelsWithoutErasing() throws {
        let question = engine.ask(user: "u1", utterance: "Ask FuelBoard to forget my location")
        let no = engine.ask(user: "u1", utterance: "no", session: try #require(question.session) as String)
        #expect(no.prompt == Prompt(code: .cancelled, outcome: .notForgotten))
        #expect(no.action == nil)
    }

    @Test func forget_whenAnswerUnrelatedTwice_neverErases() throws {
        let question = engine.ask(user: "u1", utterance: "Ask FuelBoard to forget my location")
        let session = try #require(question.session)
        let first = engine.ask(user: "u1", utterance: "hmm", session: session)
        #expect(first.prompt?.code == .confirmationRequired)
        let second = engine.ask(user: "u1", utterance: "hmm", session: session)
        #expect(second.prompt == Prompt(code: .cancelled, outcome: .notForgotten))
        #expect(second.action == nil)
    }

    @Test func cancel_endsTheSession() throws {
        for word in ["cancel", "never mind", "Stop."] {
            let question = engine.ask(user: "u1", utterance: "Ask FuelBoard to set my search radius")
            let session = try #require(question.session)
            let cancelled = engine.ask(user: "u1", utterance: word, session: session)
            #expect(cancelled.prompt == Prompt(code: .cancelled, outcome: .cancelled), "\(word)")
            let after = engine.ask(user: "u1", utterance: "10 miles", session: session)
            #expect(after.prompt?.outcome == .sessionExpired, "the session is closed after \(word)")
        }
    }

    @Test func session_whenExpired_anAnswerIsToldTheQuestionTimedOut() throws {
        let question = engine.ask(user: "u1", utterance: "Ask FuelBoard for the cheapest fuel near me")
        let session = try #require(question.session)
        clock.advance(by: .seconds(31))
        let late = engine.ask(user: "u1", utterance: "diesel", session: session)
        #expect(late.action == nil)
        #expect(late.prompt == Prompt(code: .failure, outcome: .sessionExpired))
        // A whole new question in an expired session is still answered as one.
        let fresh = engine.ask(user: "u1", utterance: "Ask FuelBoard for the cheapest diesel near me", session: session)
        #expect(fresh.action != nil || fresh.prompt?.outcome != .sessionExpired)
    }

    @Test func session_whenJustBeforeExpiry_stillAnswers() throws {
        let question = engine.ask(user: "u1", utterance: "Ask FuelBoard for the cheapest fuel near me")
        clock.advance(by: .seconds(29))
        let answer = engine.ask(user: "u1", utterance: "diesel", session: try #require(question.session) as String)
        #expect(answer.action == .findCheapest(.b7, directions: false))
    }

    @Test func session_ofAnotherUser_isNotFound() throws {
        let question = engine.ask(user: "u1", utterance: "Ask FuelBoard to forget my location")
        let stolen = engine.ask(user: "u2", utterance: "yes", session: try #require(question.session) as String)
        #expect(stolen.action == nil)
    }

    @Test func radius_whenOutOfRange_explains() {
        let decision = engine.ask(user: "u1", utterance: "Ask FuelBoard to set my search radius to 60 miles")
        #expect(decision.prompt == Prompt(code: .failure, outcome: .radiusOutOfRange, radiusMiles: 60, unit: .miles))
    }

    /// "-5 miles" was taken as 5 miles (QA): a negative radius, written or said, is out of range.
    @Test(arguments: ["Ask FuelBoard to set my search radius to -5 miles",
                      "Ask FuelBoard to set my search radius to minus 5 miles"])
    func radius_whenNegative_isRefusedAsOutOfRange(utterance: String) {
        let decision = engine.ask(user: "u1", utterance: utterance)
        #expect(decision.prompt == Prompt(code: .failure, outcome: .radiusOutOfRange, radiusMiles: -5, unit: .miles))
    }

    @Test func radius_inKilometresOutOfRange_explainsInKilometres() {
        let decision = engine.ask(user: "u1", utterance: "Ask FuelBoard to set my search radius to 100 km")
        #expect(decision.prompt == Prompt(code: .failure, outcome: .radiusOutOfRange, radiusMiles: 100 / DistanceUnit.kilometresPerMile, unit: .km))
    }

    /// 80 is out of range in miles but not in km: a bare number waits for the user's unit.
    @Test func radius_bareNumber_isHandledWithoutAUnitNotRefusedAsMiles() {
        let decision = engine.ask(user: "u1", utterance: "Ask FuelBoard to set my search radius to 80")
        #expect(decision.action == .setRadius(.set(.bare(80))))
        #expect(decision.parameters == ["radius": .number(80)])
    }

    @Test func radius_answeredWithABareNumber_isInTheUsersUnit() throws {
        let question = engine.ask(user: "u1", utterance: "Ask FuelBoard to set my search radius")
        #expect(question.prompt == Prompt(code: .needsValue, outcome: .askRadius))
        let answer = engine.ask(user: "u1", utterance: "15", session: try #require(question.session) as String)
        #expect(answer.action == .setRadius(.set(.bare(15))))
    }

    @Test func radius_setClearedAndNotMentioned_areThreeDifferentThings() throws {
        #expect(engine.ask(user: "u1", utterance: "Ask FuelBoard to set my search radius to 10 miles").action ==
                .setRadius(.set(.miles(10))))
        #expect(engine.ask(user: "u1", utterance: "reset my search radius FuelBoard").action == .setRadius(.clear))
        let question = engine.ask(user: "u1", utterance: "Ask FuelBoard to set my search radius")
        #expect(question.prompt?.outcome == .askRadius)
        #expect(question.needs == "miles")
        let answer = engine.ask(user: "u1", utterance: "twelve miles", session: try #require(question.session) as String)
        #expect(answer.action == .setRadius(.set(.miles(12))))
        #expect(answer.parameters == ["miles": .number(12)])
    }

    @Test func radius_whenAnswerIsDefault_clears() throws {
        let question = engine.ask(user: "u1", utterance: "Ask FuelBoard to change my search radius")
        let answer = engine.ask(user: "u1", utterance: "the default", session: try #require(question.session) as String)
        #expect(answer.action == .setRadius(.clear))
        #expect(answer.parameters == ["miles": .null])
    }

    @Test func unit_whenMissing_asksThenSets() throws {
        let question = engine.ask(user: "u1", utterance: "Ask FuelBoard to change my distance unit")
        #expect(question.prompt?.outcome == .askUnit)
        let answer = engine.ask(user: "u1", utterance: "kilometres please", session: try #require(question.session) as String)
        #expect(answer.action == .setUnit(.set(.km)))
    }

    @Test func notUnderstood_saysSoRatherThanPlainHelp() {
        let decision = engine.ask(user: "u1", utterance: "What's the weather like")
        #expect(decision.prompt == Prompt(code: .failure, outcome: .notUnderstood))
        #expect(decision.intent == nil)
    }

    @Test func aRequestWithoutTheAppName_isNotTaken_butSaysHowToAsk() {
        for utterance in ["cheapest diesel near me", "Where's the nearest petrol station near me?",
                          "directions to the cheapest unleaded nearby", "help"] {
            let decision = engine.ask(user: "u1", utterance: utterance, location: here)
            #expect(decision.prompt == Prompt(code: .failure, outcome: .appNotNamed), "\(utterance)")
            #expect(decision.action == nil && decision.session == nil, "\(utterance)")
        }
        // What would be no request with the name, or names it and is still none, is not understood.
        for utterance in ["What's the weather like", "FuelBoard what's the weather like", "banana"] {
            #expect(engine.ask(user: "u1", utterance: utterance).prompt?.outcome == .notUnderstood, "\(utterance)")
        }
    }

    /// "The cheapest diesel in Leeds" got "Sorry, I didn't catch that", with a list of what can
    /// be asked that did not say why (conversation walkthrough).
    @Test(arguments: [("Ask FuelBoard for the cheapest diesel in Leeds", Intent.cheapestFuel),
                      ("Ask FuelBoard for the cheapest diesel near LS1 4AP", .cheapestFuel),
                      ("Ask FuelBoard for the cheapest diesel at Tesco", .cheapestFuel),
                      ("Ask FuelBoard where is the nearest petrol station in Milton Keynes", .nearestFuel),
                      ("Ask FuelBoard for directions to the cheapest unleaded around Hull", .directionsToCheapestFuel),
                      ("Ask FuelBoard for the cheapest diesel within 5 miles of Leeds", .cheapestFuel)])
    func aSearchWithAPlaceNamed_saysSearchesAreNearTheUser(utterance: String, intent: Intent) {
        let decision = engine.ask(user: "u1", utterance: utterance, location: here)
        #expect(decision.prompt == Prompt(code: .failure, outcome: .namedPlace), "\(utterance)")
        #expect(decision.intent == intent && decision.action == nil && decision.session == nil, "\(utterance)")
    }

    @Test(arguments: ["Ask FuelBoard for the cheapest diesel in 10 minutes", "Ask FuelBoard for the cheapest diesel in ten minutes",
                      "Ask FuelBoard for the cheapest flights in Spain", "Ask FuelBoard to play music in the kitchen",
                      "Ask FuelBoard for the cheapest diesel in the whole of the United Kingdom please",
                      "Ask FuelBoard cheapest diesel near me mate", "Ask FuelBoard nearest diesel from here",
                      "Ask FuelBoard cheapest diesel at the moment", "Ask FuelBoard cheapest diesel in this area",
                      "Ask FuelBoard cheapest diesel in the next 10 miles", "Ask FuelBoard cheapest diesel in litres",
                      "Ask FuelBoard I need diesel in the van",
                      "Ask FuelBoard is there a petrol station near me open now",
                      "Ask FuelBoard cheapest diesel in gallons", "Ask FuelBoard cheapest diesel in euros",
                      "Ask FuelBoard cheapest diesel at midnight", "Ask FuelBoard nearest diesel by road"])
    func whatIsNoSearchWithAPlace_isNotUnderstood(utterance: String) {
        #expect(engine.ask(user: "u1", utterance: utterance).prompt?.outcome == .notUnderstood, "\(utterance)")
    }

    @Test func anotherAppName_isTheOneTheHintLooksFor() throws {
        let engine = DialogueEngine(recognizer: try IntentRecognizer(appName: "PumpPal"),
                                    sessions: SessionStore(timeToLive: .seconds(30), now: { clock.now }))
        #expect(engine.ask(user: "u1", utterance: "cheapest diesel near me").prompt?.outcome == .appNotNamed)
        #expect(engine.ask(user: "u1", utterance: "ask PumpPal for the cheapest diesel near me", location: here)
            .action == .findCheapest(.b7, directions: false))
    }

    @Test func run_whenForgetConfirmedAlready_handlesAtOnce() {
        #expect(engine.run(user: "u1", call: .forgetMyLocation, confirmed: true).action == .forgetLocation)
        #expect(engine.run(user: "u1", call: .forgetMyLocation).prompt?.code == .confirmationRequired)
    }
}
