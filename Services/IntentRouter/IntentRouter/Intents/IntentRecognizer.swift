import Messages

/// Utterances to intent calls: the normaliser, the intent grammar and the follow-up grammar.
public struct IntentRecognizer: Sendable {
    public let normalizer: UtteranceNormalizer
    let intents: PhraseMatcher
    let followUps: PhraseMatcher
    /// The app's name as one spoken word ("fuelboard").
    let appWord: String
    /// Every word either grammar or a slot list knows: never taken for a misheard fuel word.
    let knownWords: Set<String>

    /// Compiles both grammars for `appName`; throws when a phrase does not compile.
    public init(appName: String = AppName.defaultName) throws(TemplateError) {
        guard !AppName.spokenForms(appName).isEmpty else {
            throw TemplateError(template: appName, reason: "the app name has no speakable words")
        }
        normalizer = UtteranceNormalizer()
        appWord = AppName.spokenForms(appName)[0]
        intents = try IntentPhrases.matcher(appName: appName)
        followUps = try FollowUpPhrases.matcher(appName: appName)
        knownWords = intents.reservedWords.union(followUps.reservedWords)
            .union(intents.slots.values.flatMap(\.knownWords))
    }

    /// An utterance's words as the matchers take them: normalised, with misheard fuel words
    /// written as the vocabulary has them ("disel" is "diesel").
    public func normalize(_ text: String) -> NormalizedUtterance {
        correctingFuelWords(normalizer.normalize(text))
    }

    /// `heard` with misheard fuel words written as the vocabulary has them.
    public func correctingFuelWords(_ heard: NormalizedUtterance) -> NormalizedUtterance {
        let words = MisheardFuel.correcting(heard.words, known: knownWords)
        guard words != heard.words else { return heard }
        return NormalizedUtterance(words: words, content: normalizer.removingSkipPhrases(words))
    }

    /// The intent an utterance asks for, or nil when it matches no phrase.
    public func recognize(_ utterance: NormalizedUtterance) -> IntentCall? {
        guard !utterance.content.isEmpty else { return Self.saysThanks(utterance) ? .thanks : nil }
        guard let match = intents.match(utterance.content), let intent = Intent(rawValue: match.label) else { return nil }
        // Thanks are fillers ("... near me, thanks"): said to the app alone, they are thanks, not a call for help.
        if intent == .help, Self.saysThanks(utterance), !utterance.content.contains(where: Self.helpWords.contains) {
            return .thanks
        }
        return Self.call(intent, match.slots)
    }

    /// Whether an utterance that asks for nothing would ask for an intent had it named the app
    /// ("cheapest diesel near me"): it is not taken as that request (every phrase names the app),
    /// but the answer can say how to ask.
    public func wouldRecognizeNamingTheApp(_ utterance: NormalizedUtterance) -> Bool {
        recognizeNamingTheApp(utterance) != nil
    }

    /// The intent an utterance that names no app asks for once the app's name is put in front
    /// ("nearest diesel"): inside a conversation with the app, that is what was asked.
    public func recognizeNamingTheApp(_ utterance: NormalizedUtterance) -> IntentCall? {
        guard !utterance.content.isEmpty, !utterance.content.contains(appWord) else { return nil }
        return recognize(NormalizedUtterance(words: [appWord] + utterance.words,
                                             content: [appWord] + utterance.content))
    }

    /// The station search an utterance that asks for nothing would be without a place named after
    /// it ("Ask FuelBoard for the cheapest diesel in Leeds", "... near LS1 4AP", "... at Tesco"):
    /// searches are only ever near the user, and the answer can say so. Nil for anything else
    /// (a number after the word, "in 10 minutes", is no place).
    public func searchWithNamedPlace(_ utterance: NormalizedUtterance) -> Intent? {
        let words = utterance.content
        for cut in stride(from: words.count - 2, through: 1, by: -1) where Self.placeWords.contains(words[cut]) {
            let named = words[(cut + 1)...]
            // A place's name is no word of the grammar ("near me mate", "from here", "at the
            // moment", "in this area" are not places) and starts with no number.
            guard named.count <= 4, let first = named.first, first.first?.isNumber != true,
                  NumberWords.parse(Array(named), at: 0) == nil,
                  !named.contains(where: { intents.reservedWords.contains($0) || Self.notPlaces.contains($0) }),
                  let match = intents.match(Array(words[..<cut])), let intent = Intent(rawValue: match.label),
                  intent.searchesStations else { continue }
            return intent
        }
        return nil
    }

    private static let placeWords: Set<String> = ["in", "near", "at", "around", "by", "outside", "from", "of"]
    /// Words after "in" or "at" that name no place ("in litres", "at the moment", "in the van",
    /// "in euros", "at midnight", "by road"). Fillers never reach here.
    private static let notPlaces: Set<String> = [
        "this", "that", "these", "those", "my", "our", "your", "a", "an", "moment", "minute", "litres", "liters",
        "litre", "liter", "gallons", "gallon", "pence", "pounds", "euros", "dollars", "van", "car", "lorry", "truck",
        "all", "mate", "pal", "then", "yeah", "sorry", "innit", "once", "least", "most", "general", "total",
        "future", "morning", "afternoon", "evening", "night", "midnight", "midday", "noon", "weekend", "road",
        "english", "welsh", "gaelic", "words", "full",
    ]

    private static let helpWords: Set<String> = ["help", "what", "how", "do", "can", "say", "use"]

    static func saysThanks(_ utterance: NormalizedUtterance) -> Bool {
        let words = utterance.words
        return words.contains("thanks") || words.contains("cheers") || words.contains("ta")
            || zip(words, words.dropFirst()).contains { $0 == "thank" && $1 == "you" }
    }

    public func recognize(_ text: String) -> IntentCall? {
        recognize(normalize(text))
    }

    /// A follow-up answer among `labels`, tried on the words without and then with fillers
    /// (so "ok" still counts as a yes).
    public func followUp(_ utterance: NormalizedUtterance, among labels: Set<FollowUpPhrases.Label>)
        -> (label: FollowUpPhrases.Label, slots: [String: SlotMatch])?
    {
        let names = Set(labels.map(\.rawValue))
        for words in [utterance.content, utterance.words] where !words.isEmpty {
            if let match = followUps.match(words, labels: names),
               let label = FollowUpPhrases.Label(rawValue: match.label) {
                return (label, match.slots)
            }
        }
        return nil
    }

    /// Builds the call from matched slots.
    static func call(_ intent: Intent, _ slots: [String: SlotMatch]) -> IntentCall {
        switch intent {
        case .cheapestFuel: .cheapestFuel(fuel(slots["fuel"] ?? slots["pricedFuel"]), within: searchRadius(slots))
        case .directionsToCheapestFuel, .nearestFuel, .directionsToNearestFuel:
            .search(intent, fuel(slots["fuel"] ?? slots["pricedFuel"]), within: searchRadius(slots))
        case .setSearchRadius: .setSearchRadius(radius(slots))
        case .setDistanceUnit: .setDistanceUnit(unit(slots["unit"]))
        case .forgetMyLocation: .forgetMyLocation
        case .help: .help
        case .thanks: .thanks
        case .mySettings: .mySettings
        }
    }

    static func fuel(_ slot: SlotMatch?) -> ParameterValue<FuelCode> {
        guard let slot else { return .missing }
        guard let value = slot.value, let code = FuelCode(code: value) else {
            return .unsupported(FuelCode.unpricedName(slot.text))
        }
        return .value(code)
    }

    /// The radius a search names for itself ("the cheapest diesel within 10 miles"), if any.
    static func searchRadius(_ slots: [String: SlotMatch]) -> SpokenRadius? {
        if case .value(.set(let radius)) = radius(slots) { return radius }
        return nil
    }

    /// The radius from `{miles}` and an optional `{radiusUnit}`; without a unit the number is a
    /// bare one, read later in the user's own unit.
    static func radius(_ slots: [String: SlotMatch]) -> ParameterValue<SettingUpdate<SpokenRadius>> {
        guard let slot = slots["miles"], let text = slot.value else { return .missing }
        if text == "clear" { return .value(.clear) }
        guard let number = Double(text), number.isFinite else { return .unsupported(slot.text) }
        let unit = slots["radiusUnit"]?.value.flatMap(DistanceUnit.init(rawValue:))
        return .value(.set(SpokenRadius(number, unit)))
    }

    static func unit(_ slot: SlotMatch?) -> ParameterValue<SettingUpdate<DistanceUnit>> {
        guard let slot, let value = slot.value else { return .missing }
        if value == "clear" { return .value(.clear) }
        guard let unit = DistanceUnit(rawValue: value) else { return .unsupported(slot.text) }
        return .value(.set(unit))
    }
}
