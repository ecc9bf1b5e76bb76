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
        guard let slot = isNumber ? match(renamed, utterance, template: numberTemplate, rules: numberRules)
            : match(renamed, utterance) else { return nil }
        return grammar.value(of: parameter, slot)
    }

    /// The option an utterance picks, or nil.
    static func choice(among options: [PluginOption], _ utterance: NormalizedUtterance) -> PluginOption? {
        var entries: [(value: String?, phrases: [String])] = []
        let titles = options.map { UtteranceNormalizer.words($0.title) }
        for (index, option) in options.enumerated() {
            var phrases = [option.title, option.value] + (option.synonyms ?? [])
            // Words only this option's title has, on their own ("Portholme") or as a run of them
            // ("Green Lane" of "Green Lane, York" beside "Station Road, York"), pick it.
            let others = titles.enumerated().filter { $0.offset != index }.map(\.element)
            phrases += uniqueRuns(of: titles[index], notIn: others)
            if index < ordinals.count {
                phrases += [ordinals[index], "number \(index + 1)", "option \(index + 1)", "\(index + 1)"]
            }
            entries.append(("\(index)", phrases))
        }
        if options.count > 1 { entries.append(("\(options.count - 1)", ["last"])) }
        guard let slot = match(.synonyms("answer", entries), utterance),
              let index = slot.value.flatMap({ Int($0) }), options.indices.contains(index) else { return nil }
        return options[index]
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
        return (0...(words.count - run.count)).contains { start in words[start ..< start + run.count].elementsEqual(run) }
    }

    private static func match(_ list: SlotList, _ utterance: NormalizedUtterance, template: String = template,
                              rules: [String: String] = FollowUpPhrases.rules) -> SlotMatch? {
        guard let matcher = try? PhraseMatcher(phrases: [Phrase("answer", template, allowsWildcards: false)],
                                               slots: [list], rules: rules) else { return nil }
        for words in [utterance.content, utterance.words] where !words.isEmpty {
            if let match = matcher.match(words), let slot = match.slots["answer"], slot.value != nil { return slot }
        }
        return nil
    }
}
