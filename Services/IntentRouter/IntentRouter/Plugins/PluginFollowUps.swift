import Messages

/// Answers inside a plug-in session: a value for a parameter ("diesel", "ten"), or one of a
/// disambiguation's options ("Portholme Road", "the second one", "Portholme").
enum PluginFollowUps {
    static let ordinals = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
                           "tenth"]
    static let template = "<lead> [the] [one (on|in|at)] [the] {answer} [(one|please|thanks|station)]"

    /// The value an utterance gives `parameter`, or nil when it gives none. A free-text
    /// parameter takes the words as said.
    static func value(for parameter: String, of grammar: PluginIntentGrammar,
                      _ utterance: NormalizedUtterance) -> JSONValue? {
        guard let list = grammar.slotLists[parameter] else { return nil }
        if case .phrases(let entries) = list.kind, entries.isEmpty {
            return utterance.content.isEmpty ? nil : .string(utterance.content.joined(separator: " "))
        }
        let renamed = SlotList(name: "answer", kind: list.kind)
        guard let slot = match(renamed, utterance) else { return nil }
        return grammar.value(of: parameter, slot)
    }

    /// The option an utterance picks, or nil.
    static func choice(among options: [PluginOption], _ utterance: NormalizedUtterance) -> PluginOption? {
        var entries: [(value: String?, phrases: [String])] = []
        let titleWords = options.map { Set(UtteranceNormalizer.words($0.title)) }
        for (index, option) in options.enumerated() {
            var phrases = [option.title, option.value] + (option.synonyms ?? [])
            // A word only this option's title has ("Portholme") picks it on its own.
            let others = titleWords.enumerated().filter { $0.offset != index }.map(\.element)
            phrases += titleWords[index].filter { word in !others.contains { $0.contains(word) } && word.count > 2 }
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

    private static func match(_ list: SlotList, _ utterance: NormalizedUtterance) -> SlotMatch? {
        guard let matcher = try? PhraseMatcher(phrases: [Phrase("answer", template, allowsWildcards: false)],
                                               slots: [list], rules: FollowUpPhrases.rules) else { return nil }
        for words in [utterance.content, utterance.words] where !words.isEmpty {
            if let match = matcher.match(words), let slot = match.slots["answer"], slot.value != nil { return slot }
        }
        return nil
    }
}
