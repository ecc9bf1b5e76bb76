import Messages

/// Answers inside a plug-in session: a value for a parameter ("diesel", "ten", "in 20 minutes"), or
/// one of a disambiguation's options ("Portholme Road", "the second one", "Portholme", "Green Lane"
/// for "Green Lane, York").
enum PluginFollowUps {
    static let ordinals = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
                           "tenth"]
    static let template = "<lead> [the] [one (on|in|at)] [the] {answer} [(one|please|thanks|station)]"
    /// A number is often said with a word before it and a unit after it ("in 20 minutes").
    static let numberTemplate = """
        <lead> [(in|within|about|around|roughly|say|to|at|maybe)] {answer} [<unit>] [(please|thanks)]
        """
    static let numberRules = FollowUpPhrases.rules.merging(["unit": """
        (mile|miles|mi|km|kilometre|kilometres|kilometer|kilometers|minute|minutes|min|mins|hour|hours|day|days \
        |week|weeks|litre|litres|liter|liters|gallon|gallons|pound|pounds|quid|pence|p|percent|per cent \
        |times|people|of them|stations|pounds worth|quids worth)
        """]) { $1 }
    /// Words after a number that may name a unit the router does not know ("car washes").
    static let maxUnknownUnitWords = 2
    /// Titles longer than this are matched by their words and as a whole, not by every run of words.
    static let maxTitleWordsForRuns = 12

    /// The value an utterance gives `parameter`, or nil when it gives none. A free-text
    /// parameter takes the words as said.
    static func value(for parameter: String, of grammar: PluginIntentGrammar,
                      _ utterance: NormalizedUtterance) -> JSONValue? {
        guard let list = grammar.slotLists[parameter] else { return nil }
        if case .phrases(let entries) = list.kind, entries.isEmpty {
            return utterance.content.isEmpty ? nil : .string(utterance.content.joined(separator: " "))
        }
        let renamed = SlotList(name: "answer", kind: list.kind)
        let isNumber = if case .number = list.kind { true } else { false }
        guard let slot = isNumber ? numberMatch(renamed, utterance) : match(renamed, utterance) else { return nil }
        return grammar.value(of: parameter, slot)
    }

    /// A number as `numberTemplate` reads it, or else followed by up to `maxUnknownUnitWords`
    /// words the router does not know as a unit ("3 washes", "3 car washes"), so long as those
    /// words are no number themselves ("twenty five" is never read as 20).
    private static func numberMatch(_ list: SlotList, _ utterance: NormalizedUtterance) -> SlotMatch? {
        if let slot = match(list, utterance, template: numberTemplate, rules: numberRules) { return slot }
        guard let matcher = matcher(list, template: numberTemplate, rules: numberRules),
              let bare = self.matcher(list, template: "{answer}") else { return nil }
        for words in [utterance.content, utterance.words] where words.count > 1 {
            for dropped in 1...min(maxUnknownUnitWords, words.count - 1) {
                let unit = Array(words.suffix(dropped))
                guard unit.allSatisfy({ $0.allSatisfy(\.isLetter) }), self.slot(in: unit, bare) == nil else { break }
                if let slot = self.slot(in: Array(words.dropLast(dropped)), matcher) { return slot }
            }
        }
        return nil
    }

    /// The option an utterance picks, or nil when it picks none or fits several. An option is
    /// picked by its title, a synonym, words only its title has, or its position ("the second one",
    /// "number 2", a bare "2", "the last one"); never by its value, which is the service's id, not
    /// something users say.
    static func choice(among options: [PluginOption], _ utterance: NormalizedUtterance) -> PluginOption? {
        let titles = options.map { UtteranceNormalizer.words($0.title) }
        let matchers = options.indices.map { index in
            matcher(.synonyms("answer", [("\(index)", phrases(for: index, of: options, titles: titles))]))
        }
        for words in [utterance.content, utterance.words] where !words.isEmpty {
            let fitting = options.indices.filter { matchers[$0].flatMap { slot(in: words, $0) } != nil }
            if fitting.count == 1, let index = fitting.first { return options[index] }
            if fitting.count > 1 { return nil }
        }
        return nil
    }

    /// Everything that picks option `index`: its title and synonyms, runs of words only its title
    /// has, and its position.
    private static func phrases(for index: Int, of options: [PluginOption], titles: [[String]]) -> [String] {
        var phrases = [options[index].title] + (options[index].synonyms ?? [])
        // Words only this option's title has, on their own ("Portholme") or as a run of them
        // ("Green Lane" of "Green Lane, York" beside "Station Road, York"), pick it.
        let others = titles.enumerated().filter { $0.offset != index }.map(\.element)
        phrases += uniqueRuns(of: titles[index], notIn: others)
        if index < ordinals.count { phrases.append(ordinals[index]) }
        phrases += ["number \(index + 1)", "option \(index + 1)", "\(index + 1)"]
        if options.count > 1 && index == options.count - 1 { phrases.append("last") }
        return phrases
    }

    /// The runs of consecutive words of `title` that no other title has: single words of more
    /// than two letters, and longer runs (the whole title is a phrase of its own already).
    static func uniqueRuns(of title: [String], notIn others: [[String]]) -> [String] {
        let longest = title.count <= maxTitleWordsForRuns ? title.count - 1 : 1
        guard longest >= 1 else { return [] }
        var runs: [String] = []
        for length in 1...longest {
            for start in 0...(title.count - length) {
                let run = Array(title[start ..< start + length])
                if length == 1 && run[0].count <= 2 { continue }
                if others.contains(where: { contains($0, run) }) { continue }
                runs.append(run.joined(separator: " "))
            }
        }
        return runs
    }

    /// Whether `words` holds `run` as consecutive words.
    private static func contains(_ words: [String], _ run: [String]) -> Bool {
        guard run.count <= words.count else { return false }
        return (0...(words.count - run.count)).contains { start in
            words[start ..< start + run.count].elementsEqual(run)
        }
    }

    private static func match(_ list: SlotList, _ utterance: NormalizedUtterance, template: String = template,
                              rules: [String: String] = FollowUpPhrases.rules) -> SlotMatch? {
        guard let matcher = matcher(list, template: template, rules: rules) else { return nil }
        for words in [utterance.content, utterance.words] where !words.isEmpty {
            if let slot = slot(in: words, matcher) { return slot }
        }
        return nil
    }

    private static func matcher(_ list: SlotList, template: String = template,
                                rules: [String: String] = FollowUpPhrases.rules) -> PhraseMatcher? {
        try? PhraseMatcher(phrases: [Phrase("answer", template, allowsWildcards: false)], slots: [list], rules: rules)
    }

    /// The answer slot `matcher` finds in `words`, when it has a value.
    private static func slot(in words: [String], _ matcher: PhraseMatcher) -> SlotMatch? {
        guard let match = matcher.match(words), let slot = match.slots["answer"], slot.value != nil else { return nil }
        return slot
    }
}
