import Messages

extension PluginIntentGrammar {
    /// Refuses a phrase no utterance can reach: one that spells out a filler the router drops from
    /// what users say ("today", "please"), or whose free-text slot ends it. Such phrases were
    /// accepted and then never matched; the author heard nothing until a user was "not understood".
    /// A phrase is judged by its samples: said aloud and normalised as an utterance is, none match.
    func refuseDeadPhrases(appName: String) throws(PluginRefusal) {
        let normalizer = UtteranceNormalizer()
        for phrase in declaration.phrases {
            let samples = Self.samples([phrase], lists: slotLists, appName: appName)
            guard !samples.isEmpty else { continue }
            let reachable = samples.contains { sample in
                let words = normalizer.normalize(sample.joined(separator: " ")).words
                return matcher.match(normalizer.removingSkipPhrases(words, keeping: fillerValues)) != nil
            }
            if reachable { continue }
            throw .bad("intent \(name): phrase \"\(phrase.prefix(80))\" can never match: " + Self.why(phrase))
        }
    }

    private static func why(_ phrase: String) -> String {
        let words = UtteranceNormalizer.words(phrase.replacingOccurrences(of: "|", with: " "))
        let fillers = Set(UtteranceNormalizer.defaultSkipPhrases.filter { $0.count == 1 }.map { $0[0] })
        if let filler = words.first(where: fillers.contains) {
            return "the router drops \"\(filler)\" from what users say (a filler), so leave it out of the phrase"
        }
        let pairs = UtteranceNormalizer.defaultSkipPhrases.filter { $0.count > 1 }
        if let pair = pairs.first(where: { pair in
            words.indices.contains { Array(words[$0...].prefix(pair.count)) == pair }
        }) {
            return "the router drops \"\(pair.joined(separator: " "))\" from what users say (a filler), "
                + "so leave it out of the phrase"
        }
        // "bye bye": a word said twice in a row counts once (a speech recogniser's stutter).
        if let twice = words.indices.dropFirst().first(where: { words[$0] == words[$0 - 1] }),
           !words[twice].hasPrefix("{"), Double(words[twice]) == nil {
            return "\"\(words[twice]) \(words[twice])\": a word said twice in a row counts once in what users say "
                + "(a speech recogniser's stutter), so the phrase must say it once"
        }
        return "a free-text parameter must be followed by a word of the phrase, and a filler cannot be that word"
    }
}
