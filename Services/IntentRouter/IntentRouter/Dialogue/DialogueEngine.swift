import Messages

/// The resolve and confirm stages (SiriKit's order), and the sessions that carry a question to
/// its answer. Pure and synchronous: it decides what to say or which action to handle, and the
/// handle stage does the rest.
public final class DialogueEngine {
    public let recognizer: IntentRecognizer
    public let sessions: SessionStore
    /// Answers that miss the question before the session gives up.
    public let maxMisunderstandings: Int
    private let memo = UnderstandingMemo()

    public init(recognizer: IntentRecognizer, sessions: SessionStore, maxMisunderstandings: Int = 2) {
        self.recognizer = recognizer
        self.sessions = sessions
        self.maxMisunderstandings = max(1, maxMisunderstandings)
    }

    /// The words of `text` and the built-in intent it asks for (remembered for repeated texts).
    public func understand(_ text: String) -> Understanding {
        memo.understanding(of: text, by: recognizer)
    }

    /// Repeated utterance texts answered from memory, and texts understood afresh.
    public var understandingCounts: (remembered: UInt64, fresh: UInt64) { (memo.hits, memo.misses) }

    /// One utterance, perhaps answering the question of session `sessionID`.
    public func ask(user: String, utterance text: String, session sessionID: String? = nil,
                    location: Coordinate? = nil) -> Decision {
        ask(user: user, understood: understand(text), session: sessionID, location: location)
    }

    /// `ask` for an utterance already understood (the router's front door has done it once).
    public func ask(user: String, understood: Understanding, session sessionID: String? = nil,
                    location: Coordinate? = nil) -> Decision {
        let utterance = understood.utterance
        if let sessionID, let session = sessions.find(sessionID, user: user) {
            if case .followUp = session.awaiting, let call = understood.call {
                // A whole request after an answer is that request, whatever it shares with a follow-up.
                sessions.close(session)
                return request(call, user: user, location: location ?? session.location)
            }
            if let decision = answer(session, utterance, location: location) { return decision }
            // A whole request, with or without the app's name (the conversation is with it already;
            // not help, which "and" alone would be, nor the question asked again, which would loop).
            if let call = understood.call ?? recognizer.recognizeNamingTheApp(utterance).flatMap({ call in
                let asksTheSameAgain = session.awaiting.parameterName != nil && call.intent == session.awaiting.intent
                return call.intent == .help || asksTheSameAgain ? nil : call
            }) {
                sessions.close(session)
                return request(call, user: user, location: location ?? session.location)
            }
            return misunderstood(session)
        }
        if let call = understood.call {
            return request(call, user: user, location: location)
        }
        if recognizer.followUp(utterance, among: [.cancel]) != nil {
            return say(.cancelled, .cancelled, intent: nil)
        }
        // An answer ("diesel") to a question whose session has ended: say so, not "didn't catch that".
        if sessionID != nil { return say(.failure, .sessionExpired, intent: nil) }
        if let search = recognizer.searchWithNamedPlace(utterance) { return say(.failure, .namedPlace, intent: search) }
        if recognizer.wouldRecognizeNamingTheApp(utterance) { return say(.failure, .appNotNamed, intent: nil) }
        return say(.failure, .notUnderstood, intent: nil)
    }

    /// An intent run directly (`assistant.run`); `confirmed` skips the confirm stage.
    public func run(user: String, call: IntentCall, confirmed: Bool = false, location: Coordinate? = nil) -> Decision {
        resolve(call, user: user, location: location, confirmed: confirmed)
    }

    // MARK: - Resolve and confirm

    /// A whole request. A search refused for its radius ("the cheapest diesel within 60 miles")
    /// opens a follow-up of the search without it, so "within 20 then" runs it.
    private func request(_ call: IntentCall, user: String, location: Coordinate?) -> Decision {
        var decision = resolve(call, user: user, location: location)
        if decision.prompt?.outcome == .radiusOutOfRange, case .value(let fuel)? = call.fuel {
            decision.session = sessions.open(user: user, awaiting: .followUp(search: call.intent, fuel: fuel, within: nil),
                                             location: location).id
        }
        return decision
    }

    func resolve(_ call: IntentCall, user: String, location: Coordinate?, confirmed: Bool = false) -> Decision {
        let intent = call.intent
        switch call {
        case .cheapestFuel(let fuel, let within), .directionsToCheapestFuel(let fuel, let within),
             .nearestFuel(let fuel, let within), .directionsToNearestFuel(let fuel, let within):
            let directions = intent.givesDirections
            // A radius with its unit is checked now; a bare number waits for the user's unit.
            if let within, let miles = within.explicitMiles, !Preferences.radiusRange.contains(miles) {
                return say(.failure, .radiusOutOfRange, intent: intent, radiusMiles: miles, unit: within.unit)
            }
            switch fuel {
            case .missing: return open(.fuel(search: intent, within: within), user: user, location: location)
            case .unsupported(let word): return say(.failure, .unsupportedFuel, intent: intent, word: word)
            case .value(let code):
                let action: Action = intent.searchesNearest ? .findNearest(code, directions: directions, within: within)
                    : .findCheapest(code, directions: directions, within: within)
                var decision = handle(action, intent, location)
                // The answer may be followed up ("take me there", "what about petrol").
                let followUp = sessions.open(user: user, awaiting: .followUp(search: intent, fuel: code, within: within),
                                             location: location)
                decision.session = followUp.id
                if let within, within.explicitMiles == nil {
                    // A bare number too far in the user's unit is refused when handled; the search
                    // stays to be followed up without it ("within 20 then").
                    var withoutRadius = followUp
                    withoutRadius.awaiting = .followUp(search: intent, fuel: code, within: nil)
                    decision.followUpIfRefused = withoutRadius
                }
                return decision
            }
        case .setSearchRadius(let radius):
            switch radius {
            case .missing:
                return open(.radius, user: user, location: location)
            case .unsupported(let text):
                return say(.failure, .radiusOutOfRange, intent: intent, word: text)
            case .value(.set(let radius)):
                // A bare number waits for the user's unit; one with its unit is checked now, and
                // the limits are said in the unit the user used.
                if let miles = radius.explicitMiles, !Preferences.radiusRange.contains(miles) {
                    return say(.failure, .radiusOutOfRange, intent: intent, radiusMiles: miles, unit: radius.unit)
                }
                return handle(.setRadius(.set(radius)), intent, location)
            case .value(let update):
                return handle(.setRadius(update), intent, location)
            }
        case .setDistanceUnit(let unit):
            switch unit {
            case .missing: return open(.unit, user: user, location: location)
            case .unsupported(let text): return say(.failure, .failure, intent: intent, word: text)
            case .value(let update): return handle(.setUnit(update), intent, location)
            }
        case .forgetMyLocation:
            if confirmed { return handle(.forgetLocation, intent, location) }
            return open(.confirmForget, user: user, location: location)
        case .help:
            return say(.success, .help, intent: .help)
        case .thanks:
            return say(.success, .welcome, intent: .thanks)
        case .mySettings:
            return handle(.readSettings, intent, location)
        }
    }

    // MARK: - Answers inside a session

    /// The decision when `utterance` answers the session's question; nil when it does not.
    private func answer(_ session: Session, _ utterance: NormalizedUtterance, location: Coordinate?) -> Decision? {
        let place = location ?? session.location
        let intent = session.awaiting.intent
        if case .followUp = session.awaiting, IntentRecognizer.saysThanks(utterance) {
            sessions.close(session)
            return say(.success, .welcome, intent: .thanks)
        }
        if recognizer.followUp(utterance, among: [.cancel]) != nil {
            sessions.close(session)
            return say(.cancelled, session.awaiting == .confirmForget ? .notForgotten : .cancelled, intent: intent)
        }
        if session.awaiting.parameterName != nil || session.awaiting == .confirmForget,
           recognizer.followUp(utterance, among: [.repeat]) != nil {
            // "Pardon?" to a question: asked again, and no miss counted (road noise).
            sessions.keep(session)
            return question(for: session)
        }
        switch session.awaiting {
        case .confirmForget:
            guard let reply = recognizer.followUp(utterance, among: [.yes, .no]) else { return nil }
            sessions.close(session)
            return reply.label == .yes ? handle(.forgetLocation, intent, place)
                : say(.cancelled, .notForgotten, intent: intent)
        case .fuel(let search, let within):
            guard let reply = recognizer.followUp(utterance, among: [.fuel]) else { return nil }
            // "diesel within 10 miles" names a radius too.
            let call = IntentCall.search(search, IntentRecognizer.fuel(reply.slots["fuel"]),
                                         within: IntentRecognizer.searchRadius(reply.slots) ?? within)
            if case .unsupported? = call.fuel { return refused(call, in: session, location: place) }
            if let radius = call.searchRadius, Self.isOutOfRange(radius) {
                return refused(call, in: session, location: place)
            }
            sessions.close(session)
            return resolve(call, user: session.user, location: place)
        case .radius:
            guard let reply = recognizer.followUp(utterance, among: [.radius]) else { return nil }
            let call = IntentCall.setSearchRadius(IntentRecognizer.radius(reply.slots))
            if case .setSearchRadius(.value(.set(let radius))) = call, Self.isOutOfRange(radius) {
                return refused(call, in: session, location: place)
            }
            if case .setSearchRadius(.value(.set(let radius))) = call, radius.explicitMiles == nil {
                // A bare number is read in the user's unit when handled ("60": 60 km is fine, 60
                // miles is not): the question stays open until then, to be asked again if refused.
                var decision = resolve(call, user: session.user, location: place)
                decision.session = session.id
                decision.questionStaysIfRefused = true
                return decision
            }
            sessions.close(session)
            return resolve(call, user: session.user, location: place)
        case .unit:
            guard let reply = recognizer.followUp(utterance, among: [.unit]) else { return nil }
            sessions.close(session)
            return resolve(.setDistanceUnit(IntentRecognizer.unit(reply.slots["unit"])), user: session.user,
                           location: place)
        case .followUp(let search, let fuel, let within):
            if let answered = session.answered, recognizer.followUp(utterance, among: [.repeat]) != nil {
                // Said again, and the answer can still be followed up.
                sessions.keep(session)
                var decision = handle(.sayAgain(answered), search, place)
                decision.session = session.id
                return decision
            }
            guard let call = followUpCall(utterance, search: search, fuel: fuel, within: within,
                                          answered: session.answered) else { return nil }
            if let radius = call.searchRadius, Self.isOutOfRange(radius) {
                // "Within 60 miles" (or "within 100") is refused, and the conversation stays for
                // "within 10 then".
                var refusal = refusal(of: call, user: session.user, location: place)
                refusal.session = session.id
                return refusal
            }
            if case .unsupported? = call.fuel {
                // "What about hydrogen" is refused, and the conversation stays for "what about super".
                var refusal = resolve(call, user: session.user, location: place)
                refusal.session = session.id
                return refusal
            }
            sessions.close(session)
            if call.intent.givesDirections, !search.givesDirections, let answered = session.answered,
               answered.station != nil {
                // "Take me there": to the station just named, not to what a new search would find
                // (prices may have changed, the phone may have moved since).
                var decision = handle(.directionsTo(answered), call.intent, place)
                decision.session = sessions.open(user: session.user, awaiting: .followUp(
                    search: call.intent, fuel: fuel, within: within), location: place).id
                return decision
            }
            var decision = resolve(call, user: session.user, location: place)
            // "Within 60" refused when handled (too far in the user's unit): this answer stays.
            if decision.action != nil, call.searchRadius != nil { decision.followUpIfRefused = session }
            return decision
        }
    }

    /// The search a follow-up of a station search's answer asks for: the same search with what it
    /// changes (directions, another fuel, another radius, the nearest or the cheapest instead).
    private func followUpCall(_ utterance: NormalizedUtterance, search: Intent, fuel: FuelCode,
                              within: SpokenRadius?, answered: RenderRequest?) -> IntentCall? {
        guard let reply = recognizer.followUp(utterance, among: [.directions, .fuel, .radius, .search, .further]) else {
            return nil
        }
        var intent = search, fuelAsked = ParameterValue.value(fuel), radius = within
        switch reply.label {
        case .directions:
            intent = .search(nearest: search.searchesNearest, directions: true)
        case .search:
            // Directions only when asked for: "take me there" then "and the nearest?" is a question.
            intent = .search(nearest: reply.slots["search"]?.value == "nearest", directions: false)
        case .fuel:
            intent = .search(nearest: search.searchesNearest, directions: false)
            fuelAsked = IntentRecognizer.fuel(reply.slots["fuel"])
            // "And premium?" after diesel is the premium diesel, as after petrol it is premium petrol.
            if fuel == .b7 || fuel == .sdv, let said = reply.slots["fuel"]?.text, said == "super" || said == "premium" {
                fuelAsked = .value(.sdv)
            }
            radius = IntentRecognizer.searchRadius(reply.slots) ?? within
        case .radius:
            intent = .search(nearest: search.searchesNearest, directions: false)
            switch IntentRecognizer.radius(reply.slots) {
            case .value(.set(let spoken)): radius = spoken
            case .value(.clear): radius = nil
            case .unsupported, .missing: return nil
            }
        case .further:
            // Twice the radius that found nothing, up to the limit (at the limit already, the same
            // search again, whose answer says it is as far as the assistant looks: "the radius has
            // to be between 1 and 50 miles" blamed a user who never gave one, QA).
            guard answered?.outcome == .nothingInRange, let miles = answered?.radiusMiles else { return nil }
            let limit = Preferences.radiusRange.upperBound
            let further = min(miles * 2, limit)
            intent = .search(nearest: search.searchesNearest, directions: false)
            if answered?.unit == .km {
                // The limit in km rounded down: rounded to the nearest (80.47 km) it was over 50
                // miles, refused, and a kilometres user never searched at the limit.
                let km = further * Vocabulary.kilometresPerMile
                radius = .km(further == limit ? (km * 100).rounded(.down) / 100 : SpokenRadius.shown(km))
            } else {
                radius = .miles(SpokenRadius.shown(further))
            }
        case .cancel, .yes, .no, .unit, .repeat:
            return nil
        }
        return .search(intent, fuelAsked, within: radius)
    }

    /// Whether `utterance` answers the open `session` (its question, a follow-up of its answer, a
    /// cancel). When it does not, a plug-in's phrase goes to the plug-in ("Ask FuelBoard is the
    /// car wash open" while "Which fuel?" waits), as a built-in request already did.
    public func answers(_ utterance: NormalizedUtterance, in session: Session) -> Bool {
        if recognizer.followUp(utterance, among: [.cancel]) != nil { return true }
        switch session.awaiting {
        case .confirmForget: return recognizer.followUp(utterance, among: [.yes, .no]) != nil
        case .fuel: return recognizer.followUp(utterance, among: [.fuel]) != nil
        case .radius: return recognizer.followUp(utterance, among: [.radius]) != nil
        case .unit: return recognizer.followUp(utterance, among: [.unit]) != nil
        case .followUp(let search, let fuel, let within):
            return followUpCall(utterance, search: search, fuel: fuel, within: within, answered: session.answered) != nil
                || IntentRecognizer.saysThanks(utterance)
                || (session.answered != nil && recognizer.followUp(utterance, among: [.repeat]) != nil)
        }
    }

    /// An answer the question cannot take ("LPG" for which fuel, "100" for how far): says why, and
    /// the question stays open for a better one ("diesel then"), as many times as a misunderstood
    /// answer may be given.
    private func refused(_ call: IntentCall, in session: Session, location: Coordinate?) -> Decision {
        var refusal = refusal(of: call, user: session.user, location: location)
        var session = session
        session.misunderstandings += 1
        guard session.misunderstandings < maxMisunderstandings else {
            sessions.close(session)
            return refusal
        }
        sessions.keep(session)
        if case .say(var prompt) = refusal.step {
            prompt.code = .needsValue  // still asking
            refusal.step = .say(prompt)
        }
        refusal.session = session.id
        refusal.needs = session.awaiting.parameterName
        return refusal
    }

    /// What a call with a value the question cannot take gets: its resolve stage's refusal, or for
    /// a bare number no unit could make a radius ("100"), the limits in the user's own unit.
    private func refusal(of call: IntentCall, user: String, location: Coordinate?) -> Decision {
        var radius = call.searchRadius
        if case .setSearchRadius(.value(.set(let set))) = call { radius = set }
        if let radius, radius.explicitMiles == nil, Self.isOutOfRange(radius) {
            return say(.failure, .radiusOutOfRange, intent: call.intent)
        }
        return resolve(call, user: user, location: location)
    }

    /// A radius out of range: one with its unit in miles, a bare number in miles and in kilometres
    /// alike (its reading waits for the user's unit, but "100" is too far in either).
    static func isOutOfRange(_ radius: SpokenRadius) -> Bool {
        let range = Preferences.radiusRange
        if let miles = radius.explicitMiles { return !range.contains(miles) }
        return !range.contains(radius.amount) && !range.contains(radius.amount / Vocabulary.kilometresPerMile)
    }

    /// A question whose answer was refused when handled, counted as a miss: the parameter it asks
    /// for again, or nil when it has had too many (it is closed) or is gone.
    public func askAgain(_ id: String, user: String) -> String? {
        guard var session = sessions.find(id, user: user) else { return nil }
        session.misunderstandings += 1
        guard session.misunderstandings < maxMisunderstandings else {
            sessions.close(session)
            return nil
        }
        sessions.keep(session)
        return session.awaiting.parameterName
    }

    /// An answer that answers nothing: ask again, or give up after too many.
    private func misunderstood(_ session: Session) -> Decision {
        var session = session
        session.misunderstandings += 1
        if case .followUp = session.awaiting {
            // Nothing was asked: not understood, as without a session, and the answer can still
            // be followed up ("take me there" after "further away?"), until too many misses.
            guard session.misunderstandings < maxMisunderstandings else {
                sessions.close(session)
                return say(.failure, .notUnderstood, intent: nil)
            }
            sessions.keep(session)
            var decision = say(.failure, .notUnderstood, intent: nil)
            decision.session = session.id
            return decision
        }
        guard session.misunderstandings < maxMisunderstandings else {
            sessions.close(session)
            if session.awaiting == .confirmForget {
                return say(.cancelled, .notForgotten, intent: .forgetMyLocation)
            }
            return say(.failure, .notUnderstood, intent: session.awaiting.intent)
        }
        sessions.keep(session)
        return question(for: session)
    }

    // MARK: - Building decisions

    private func open(_ awaiting: Awaiting, user: String, location: Coordinate?) -> Decision {
        question(for: sessions.open(user: user, awaiting: awaiting, location: location))
    }

    private func question(for session: Session) -> Decision {
        let prompt: Prompt = switch session.awaiting {
        case .fuel: Prompt(code: .needsValue, outcome: .askFuel)
        case .radius: Prompt(code: .needsValue, outcome: .askRadius)
        case .unit: Prompt(code: .needsValue, outcome: .askUnit)
        case .confirmForget: Prompt(code: .confirmationRequired, outcome: .confirmForget)
        case .followUp: Prompt(code: .failure, outcome: .notUnderstood)
        }
        return Decision(step: .say(prompt), intent: session.awaiting.intent, session: session.id,
                        needs: session.awaiting.parameterName, location: session.location)
    }

    private func say(_ code: AssistantCode, _ outcome: DialogOutcome, intent: Intent?, word: String? = nil,
                     radiusMiles: Double? = nil, unit: DistanceUnit? = nil) -> Decision {
        let prompt = Prompt(code: code, outcome: outcome, word: word, radiusMiles: radiusMiles, unit: unit)
        return Decision(step: .say(prompt), intent: intent)
    }

    private func handle(_ action: Action, _ intent: Intent, _ location: Coordinate?) -> Decision {
        Decision(step: .handle(action), intent: intent, parameters: action.parameters, location: location)
    }
}
