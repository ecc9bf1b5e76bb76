import Messages

/// A registration that cannot be accepted, with the protocol code and a sentence saying why.
struct PluginRefusal: Error, Equatable {
    /// `bad_request` (the declaration is malformed) or `conflict` (it collides with another intent).
    let code: String
    let reason: String

    static func bad(_ reason: String) -> PluginRefusal { PluginRefusal(code: "bad_request", reason: reason) }
    static func conflict(_ reason: String) -> PluginRefusal { PluginRefusal(code: "conflict", reason: reason) }
}

/// One plug-in intent compiled with the router's own template compiler: its phrases, the slot
/// list of each parameter, and sample utterances for collision checks.
final class PluginIntentGrammar {
    let declaration: PluginIntent
    let service: String
    let matcher: PhraseMatcher
    /// Slot lists by parameter name.
    let slotLists: [String: SlotList]
    let parameterTypes: [String: PluginParameter]
    let stages: [PluginStage]
    /// Whether the intent's requests carry the user's location (declared `usesLocation`).
    let usesLocation: Bool
    /// The sentence the help answer adds for it (declared `help`, made speakable).
    let help: String?
    static let maxHelpLength = 200
    /// A few utterances (as words) each phrase accepts.
    let samples: [[String]]
    /// Filler phrases ("today", "right now") that are values or synonyms of its enum parameters:
    /// kept in what its phrases match (`PluginRegistry.content(of:)`).
    let fillerValues: Set<String>

    static let maxPhrases = 50
    static let maxValues = 2000
    /// Unknown words a free `string` parameter may take.
    static let freeTextWords = 4
    /// Free-text parameters one phrase may name.
    static let maxFreeTextPerPhrase = 3

    var name: String { declaration.name }

    init(_ intent: PluginIntent, service: String, appName: String) throws(PluginRefusal) {
        declaration = intent
        self.service = service
        try Self.validate(intent)
        let parameters = intent.parameters ?? []
        var lists: [String: SlotList] = [:]
        var types: [String: PluginParameter] = [:]
        for parameter in parameters {
            lists[parameter.name] = Self.slotList(parameter)
            types[parameter.name] = parameter
        }
        let app = SlotList.synonyms("app", [("app", AppName.spokenForms(appName))])
        let phrases = intent.phrases.map { Phrase(intent.name, $0) }
        do {
            // Free text says what users say: "at the big tesco" where the phrase itself says "the".
            matcher = try PhraseMatcher(phrases: phrases, slots: Array(lists.values) + [app], requiredSlots: ["app"],
                                        forPlugIn: true)
        } catch {
            throw .bad("intent \(intent.name): \(error.description)")
        }
        slotLists = lists
        parameterTypes = types
        fillerValues = Self.fillerValues(of: parameters)
        stages = intent.stages.map { Array(Set($0)).sorted { $0.order < $1.order } } ?? PluginStage.allCases
        usesLocation = intent.usesLocation ?? false
        help = intent.help.map { SpeakableText.clean($0).trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        samples = Self.samples(intent.phrases, lists: lists, appName: appName)
        try refuseDeadPhrases(appName: appName)
    }

    /// The parameters an utterance's match binds: numbers as numbers, listed values as their
    /// value, free words as said.
    func parameters(from match: PhraseMatch) -> [String: JSONValue] {
        var values: [String: JSONValue] = [:]
        for (name, slot) in match.slots where name != "app" {
            values[name] = value(of: name, slot)
        }
        return values
    }

    /// A slot's value as the parameter takes it; nil for a negative number ("minus 5", "-5"): a
    /// plug-in's numbers are 0 or more, as `assistant.run` checks, so it is not a value given.
    func value(of parameter: String, _ slot: SlotMatch) -> JSONValue? {
        if parameterTypes[parameter]?.type == .number, let text = slot.value, let number = Double(text) {
            return number < 0 ? nil : .number(number)
        }
        return .string(slot.value ?? slot.text)
    }

    // MARK: - Validation

    private static func validate(_ intent: PluginIntent) throws(PluginRefusal) {
        guard isName(intent.name, maxLength: 60, allowDots: true) else {
            throw .bad("intent name '\(intent.name.prefix(60))' must be 1 to 60 letters, digits, '_', '-' or '.'")
        }
        if Intent(rawValue: intent.name) != nil {
            throw .conflict("intent \(intent.name) is a built-in intent of the router")
        }
        guard !intent.phrases.isEmpty, intent.phrases.count <= maxPhrases else {
            throw .bad("intent \(intent.name) needs 1 to \(maxPhrases) phrases")
        }
        if let long = intent.phrases.first(where: { $0.count > 300 }) {
            throw .bad("intent \(intent.name): phrase '\(long.prefix(40))...' is longer than 300 characters")
        }
        if let help = intent.help, help.count > maxHelpLength {
            throw .bad("intent \(intent.name): help is longer than \(maxHelpLength) characters")
        }
        if let stages = intent.stages, !stages.contains(.handle) {
            throw .bad("intent \(intent.name): stages must include handle")
        }
        var seen = Set<String>()
        var valueCount = 0
        for parameter in intent.parameters ?? [] {
            guard isName(parameter.name, maxLength: 40, allowDots: false), parameter.name != "app" else {
                throw .bad("intent \(intent.name): parameter name '\(parameter.name.prefix(40))' must be 1 to 40 "
                    + "letters, digits or '_' and not 'app'")
            }
            guard seen.insert(parameter.name).inserted else {
                throw .bad("intent \(intent.name): parameter \(parameter.name) is declared twice")
            }
            if parameter.type == .enum, (parameter.values ?? []).isEmpty {
                throw .bad("intent \(intent.name): enum parameter \(parameter.name) needs values")
            }
            if parameter.type == .number, parameter.values != nil {
                throw .bad("intent \(intent.name): number parameter \(parameter.name) takes no values")
            }
            var saidFor: [String: String] = [:]  // what a value is said as -> the value
            for value in parameter.values ?? [] {
                valueCount += 1 + (value.synonyms?.count ?? 0)
                if UtteranceNormalizer.words(value.value).isEmpty && (value.synonyms ?? []).isEmpty {
                    throw .bad("intent \(intent.name): parameter \(parameter.name) has a value with no words")
                }
                // Words that name two values would pick one of them unseen ("blue" a synonym of red).
                for (said, words) in saidForms(value) where !words.isEmpty {
                    if let other = saidFor[words], other != value.value {
                        throw .bad("intent \(intent.name): parameter \(parameter.name): \"\(said.prefix(40))\" names "
                            + "both \(other.prefix(40)) and \(value.value.prefix(40)); a word may name one value")
                    }
                    saidFor[words] = value.value
                }
            }
        }
        guard valueCount <= maxValues else {
            throw .bad("intent \(intent.name) declares more than \(maxValues) values and synonyms")
        }
        // Free text may take the phrase's own words, so each more in a phrase multiplies the ways
        // an utterance can be read: nine made one ask 275 ms of the router's loop (hostile QA).
        let freeText = (intent.parameters ?? []).filter { $0.type != .number && ($0.values ?? []).isEmpty }.map(\.name)
        for phrase in intent.phrases {
            let named = freeText.filter { phrase.contains("{\($0)}") }
            if named.count > maxFreeTextPerPhrase {
                throw .bad("intent \(intent.name): phrase \"\(phrase.prefix(60))\" has \(named.count) free-text parameters "
                    + "(\(named.prefix(5).joined(separator: ", "))); a phrase may have \(maxFreeTextPerPhrase) at most")
            }
        }
    }

    /// The filler phrases that `parameters`' values and synonyms are.
    static func fillerValues(of parameters: [PluginParameter]) -> Set<String> {
        let fillers = Set(UtteranceNormalizer.defaultSkipPhrases.map { $0.joined(separator: " ") })
        var found = Set<String>()
        for parameter in parameters where parameter.type != .number {
            for value in parameter.values ?? [] {
                for (_, words) in saidForms(value) where fillers.contains(words) { found.insert(words) }
            }
        }
        return found
    }

    /// A value and its synonyms as written, each with its words as an utterance normalises them
    /// (joined by a space).
    private static func saidForms(_ value: PluginValue) -> [(said: String, words: String)] {
        ([value.value] + (value.synonyms ?? [])).map { ($0, UtteranceNormalizer.words($0).joined(separator: " ")) }
    }

    static func isName(_ text: String, maxLength: Int, allowDots: Bool) -> Bool {
        guard !text.isEmpty, text.count <= maxLength else { return false }
        return text.unicodeScalars.allSatisfy { scalar in
            (scalar.isASCII && (scalar.properties.isAlphabetic || ("0" ... "9").contains(scalar)))
                || scalar == "_" || scalar == "-" || (allowDots && scalar == ".")
        }
    }

    static func slotList(_ parameter: PluginParameter) -> SlotList {
        switch parameter.type {
        case .number:
            return SlotList(name: parameter.name, kind: .number)
        case .enum, .string:
            guard let values = parameter.values, !values.isEmpty else {
                return SlotList(name: parameter.name, kind: .phrases([]), wildcardWords: freeTextWords)
            }
            return .synonyms(parameter.name, values.map { ($0.value, [$0.value] + ($0.synonyms ?? [])) })
        }
    }

    // MARK: - Samples for collision checks

    /// Up to a few utterances per phrase: the first ways through each choice, optional parts
    /// with and without, each slot filled with one of its first values.
    static func samples(_ phrases: [String], lists: [String: SlotList], appName: String) -> [[String]] {
        let parser = TemplateParser()
        let app = AppName.spokenForms(appName).first.map(UtteranceNormalizer.words) ?? []
        var result: [[String]] = []
        for phrase in phrases {
            guard let node = try? parser.parse(phrase) else { continue }
            result += expand(node, limit: 12) { name in
                if name == "app" { return [app] }
                guard let list = lists[name] else { return [] }
                switch list.kind {
                case .number: return [["5"]]
                case .phrases(let entries) where entries.isEmpty: return [["acme"]]
                case .phrases(let entries): return entries.prefix(2).map(\.words)
                }
            }
        }
        return result
    }

    static func expand(_ node: TemplateNode, limit: Int, slot: (String) -> [[String]]) -> [[String]] {
        switch node {
        case .word(let word):
            return [[word]]
        case .slot(let name):
            return slot(name)
        case .optional(let inner):
            return Array(([[]] + expand(inner, limit: limit, slot: slot)).prefix(limit))
        case .choice(let options):
            return Array(options.flatMap { expand($0, limit: limit, slot: slot) }.prefix(limit))
        case .sequence(let items):
            var partial: [[String]] = [[]]
            for item in items {
                let tails = expand(item, limit: limit, slot: slot)
                var next: [[String]] = []
                outer: for head in partial {
                    for tail in tails {
                        next.append(head + tail)
                        if next.count >= limit { break outer }
                    }
                }
                partial = next
            }
            return partial
        }
    }
}

extension PluginStage {
    var order: Int { PluginStage.allCases.firstIndex(of: self) ?? 0 }
}
