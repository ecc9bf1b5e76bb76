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
            if reachable {
                if let (alternative, filler) = Self.deadAlternative(in: phrase) {
                    throw .bad("intent \(name): phrase \"\(phrase.prefix(80))\" has an alternative that can never "
                        + "match, \"\(alternative)\": the router drops \"\(filler)\" from what users say (a filler), "
                        + "so leave it out of the phrase")
                }
                continue
            }
            throw .bad("intent \(name): phrase \"\(phrase.prefix(80))\" can never match: " + Self.why(phrase))
        }
    }

    /// A filler the router drops from utterances that `words` say: a filler word, or a run of
    /// words that is one ("what is").
    private static func filler(in words: [String]) -> String? {
        let fillers = Set(UtteranceNormalizer.defaultSkipPhrases.filter { $0.count == 1 }.map { $0[0] })
        if let filler = words.first(where: fillers.contains) { return filler }
        let runs = UtteranceNormalizer.defaultSkipPhrases.filter { $0.count > 1 }
        return runs.first { run in
            words.indices.contains { Array(words[$0...].prefix(run.count)) == run }
        }?.joined(separator: " ")
    }

    /// A choice's alternative (outside any optional part) that says a filler however it is said,
    /// with that filler: `(what is|how is) the price trend` was taken, as "how is ..." matched,
    /// and users asking "what is ..." were not understood (plug-in QA). Under an optional part it
    /// does no harm: the phrase matches without it.
    static func deadAlternative(in phrase: String) -> (alternative: String, filler: String)? {
        guard let node = try? TemplateParser().parse(phrase) else { return nil }
        func search(_ node: TemplateNode) -> (String, String)? {
            switch node {
            case .choice(let options):
                for option in options {
                    let forms = expand(option, limit: 12) { name in [["{\(name)}"]] }
                    let fillers = forms.map { filler(in: $0) }
                    if !forms.isEmpty, let first = fillers.first, let said = first, fillers.allSatisfy({ $0 != nil }) {
                        return (forms[0].joined(separator: " "), said)
                    }
                    if let found = search(option) { return found }
                }
                return nil
            case .sequence(let items):
                return items.lazy.compactMap(search).first
            case .optional, .word, .slot:
                return nil
            }
        }
        return search(node)
    }

    private static func why(_ phrase: String) -> String {
        // Twenty free-text parameters were told of a stutter or a filler (hostile QA).
        if let node = try? TemplateParser().parse(phrase), fewestWords(node) > UtteranceNormalizer.maxWords {
            return "it takes at least \(fewestWords(node)) words to say, and the router reads the first "
                + "\(UtteranceNormalizer.maxWords) words of what users say"
        }
        let words = UtteranceNormalizer.words(phrase.replacingOccurrences(of: "|", with: " "))
        if let filler = filler(in: words) {
            return "the router drops \"\(filler)\" from what users say (a filler), so leave it out of the phrase"
        }
        // "bye bye": a word said twice in a row counts once (a speech recogniser's stutter).
        if let twice = words.indices.dropFirst().first(where: { words[$0] == words[$0 - 1] }),
           !words[twice].hasPrefix("{"), Double(words[twice]) == nil {
            return "\"\(words[twice]) \(words[twice])\": a word said twice in a row counts once in what users say "
                + "(a speech recogniser's stutter), so the phrase must say it once"
        }
        return "a free-text parameter must be followed by a word of the phrase, and a filler cannot be that word"
    }

    /// The fewest words any way of saying `node` takes (a parameter, or the app name, one at least).
    private static func fewestWords(_ node: TemplateNode) -> Int {
        switch node {
        case .word, .slot: 1
        case .optional: 0
        case .sequence(let items): items.reduce(0) { $0 + fewestWords($1) }
        case .choice(let options): options.map(fewestWords).min() ?? 0
        }
    }
}
