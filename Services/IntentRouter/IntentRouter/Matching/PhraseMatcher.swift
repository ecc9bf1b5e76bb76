/// One phrase of a grammar: a label (the intent), its template text and slots it always sets.
public struct Phrase: Sendable {
    public let label: String
    public let template: String
    /// Slots the phrase sets by itself ("reset my search radius" sets `miles` to `clear`).
    public let fixed: [String: String]
    /// Whether `{slot}`s with a wildcard allowance may take unknown words here.
    public let allowsWildcards: Bool

    public init(_ label: String, _ template: String, fixed: [String: String] = [:], allowsWildcards: Bool = true) {
        self.label = label
        self.template = template
        self.fixed = fixed
        self.allowsWildcards = allowsWildcards
    }
}

/// The words one slot took and what they mean.
public struct SlotMatch: Sendable, Equatable {
    /// The words as said ("super unleaded").
    public let text: String
    /// The slot list's value ("E5"), or nil for a word the slot cannot serve ("hydrogen").
    public let value: String?
    /// True when the words are unknown to the slot list (taken by a wildcard).
    public let isWildcard: Bool

    public init(text: String, value: String?, isWildcard: Bool) {
        self.text = text
        self.value = value
        self.isWildcard = isWildcard
    }
}

/// The best way an utterance matched a grammar.
public struct PhraseMatch: Sendable, Equatable {
    public let label: String
    public let slots: [String: SlotMatch]
    /// Index of the phrase in the grammar (earlier phrases win ties).
    public let phraseIndex: Int
    let literalWords: Int
    let wildcardWords: Int
}

/// Phrases compiled once, matched against whole utterances by backtracking.
///
/// An utterance matches a phrase only when the template covers every word. Among several
/// matches the one with the fewest wildcard words wins, then the one with the most literal
/// words, then the earlier phrase (hassil 2's "more literal text beats lists").
public struct PhraseMatcher: Sendable {
    struct Compiled: Sendable {
        let phrase: Phrase
        let node: MatchNode
        let requiredWords: Set<String>
        /// Every word the phrase can take (its literal words and its lists' words); nil when it
        /// can take words no list holds (a number, a wildcard).
        let vocabulary: Set<String>?
    }

    let phrases: [Compiled]
    let slots: [String: SlotList]
    /// Words a wildcard never takes: every literal word of the grammar.
    let reservedWords: Set<String>
    /// The words a wildcard never takes: `reservedWords`, or none in a plug-in's grammar (its free
    /// text: "at the big tesco" in a phrase that itself says "the").
    private let wildcardStops: Set<String>
    /// Words every phrase needs: an utterance without one of them matches none.
    let wordsEveryPhraseNeeds: Set<String>
    /// Steps one phrase may take before it is abandoned (guards against pathological input).
    static let stepBudget = 50_000

    /// Compiles every phrase; throws on a bad template, an unknown slot, or a phrase that can leave
    /// out a slot listed in `requiredSlots` (the app name). A plug-in's grammar (`forPlugIn`) is
    /// held to more: a path binding one slot twice (it never matches) is refused, and a wildcard may
    /// take any word but its own list's (still followed by something known), where the built-in
    /// grammar's never takes one of the grammar's literal words.
    public init(phrases: [Phrase], slots: [SlotList], rules: [String: String] = [:],
                requiredSlots: [String] = [], forPlugIn: Bool = false) throws(TemplateError) {
        let parser = TemplateParser(rules: rules)
        let byName = Dictionary(slots.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
        var compiled: [Compiled] = []
        var reserved = Set<String>()
        for phrase in phrases {
            let node = try parser.parse(phrase.template)
            for name in node.slotNames where byName[name] == nil {
                throw TemplateError(template: phrase.template, reason: "unknown slot {\(name)}")
            }
            if forPlugIn, let twice = node.slotsOnAPathTwice.sorted().first {
                throw TemplateError(template: phrase.template,
                                    reason: "{\(twice)} appears twice in one way of saying it; a slot is said once")
            }
            for name in requiredSlots where !node.requires(slot: name) {
                throw TemplateError(template: phrase.template, reason: "every phrase must contain {\(name)}")
            }
            reserved.formUnion(node.literalWords)
            let prepared = MatchNode(node) { name in
                guard let list = byName[name], !(phrase.allowsWildcards && list.wildcardWords > 0) else { return nil }
                return list.firstWords
            }
            var vocabulary: Set<String>? = node.literalWords
            for name in node.slotNames {
                guard let list = byName[name], case .phrases = list.kind,
                      !(phrase.allowsWildcards && list.wildcardWords > 0) else {
                    vocabulary = nil
                    break
                }
                vocabulary?.formUnion(list.knownWords)
            }
            compiled.append(Compiled(phrase: phrase, node: prepared, requiredWords: node.requiredWords,
                                     vocabulary: vocabulary))
        }
        self.phrases = compiled
        self.slots = byName
        self.reservedWords = reserved
        wildcardStops = forPlugIn ? [] : reserved
        wordsEveryPhraseNeeds = compiled.dropFirst().reduce(compiled.first?.requiredWords ?? []) {
            $0.intersection($1.requiredWords)
        }
    }

    /// The best match of `words` over all phrases (or only those whose label is in `labels`).
    public func match(_ words: [String], labels: Set<String>? = nil) -> PhraseMatch? {
        match(words, present: Set(words), labels: labels)
    }

    /// `match` with the utterance's words as a set already made (`present`): a caller matching one
    /// utterance against many matchers (a registration's collision checks) hashes its words once.
    /// With `screening`, a phrase is not walked when the utterance has a word it cannot take (a
    /// plug-in's samples against the built-in phrases; asks skip the look-ups).
    public func match(_ words: [String], present: Set<String>, labels: Set<String>? = nil,
                      screening: Bool = false) -> PhraseMatch? {
        guard wordsEveryPhraseNeeds.isSubset(of: present) else { return nil }
        var best: PhraseMatch?
        for (index, compiled) in phrases.enumerated() where labels?.contains(compiled.phrase.label) ?? true {
            guard compiled.requiredWords.isSubset(of: present) else { continue }
            if screening, let vocabulary = compiled.vocabulary, !present.isSubset(of: vocabulary) { continue }
            guard let candidate = match(words, compiled, index: index) else { continue }
            if best.map({ Self.isBetter(candidate, than: $0) }) ?? true { best = candidate }
        }
        return best
    }

    static func isBetter(_ candidate: PhraseMatch, than other: PhraseMatch) -> Bool {
        if candidate.wildcardWords != other.wildcardWords { return candidate.wildcardWords < other.wildcardWords }
        if candidate.literalWords != other.literalWords { return candidate.literalWords > other.literalWords }
        return candidate.phraseIndex < other.phraseIndex
    }

    /// State of one path through a template.
    struct PathState {
        var slots: [String: SlotMatch] = [:]
        var literalWords = 0
        var wildcardWords = 0
        /// A wildcard took the last words and nothing known has followed it yet.
        var wildcardOpen = false
    }

    private func match(_ words: [String], _ compiled: Compiled, index: Int) -> PhraseMatch? {
        var best: PhraseMatch?
        let walker = Walker(words: words, slots: slots, reserved: wildcardStops,
                            wildcards: compiled.phrase.allowsWildcards)
        walker.walk(compiled.node, 0, PathState()) { position, state in
            guard position == words.count, !state.wildcardOpen else { return }
            var bound = state.slots
            for (name, value) in compiled.phrase.fixed where bound[name] == nil {
                bound[name] = SlotMatch(text: "", value: value, isWildcard: false)
            }
            let candidate = PhraseMatch(label: compiled.phrase.label, slots: bound, phraseIndex: index,
                                        literalWords: state.literalWords, wildcardWords: state.wildcardWords)
            if best.map({ Self.isBetter(candidate, than: $0) }) ?? true { best = candidate }
        }
        return best
    }
}

/// The backtracking walk over one template (continuation-passing: each node calls `next` for
/// every way it can consume words from `position`). A wildcard never takes a word of the grammar
/// or of its own slot list, and must be followed by something known (so "diesel tomorrow" is not
/// a fuel).
private final class Walker {
    let words: [String]
    let slots: [String: SlotList]
    let reserved: Set<String>
    let wildcards: Bool
    private var steps = 0

    init(words: [String], slots: [String: SlotList], reserved: Set<String>, wildcards: Bool) {
        self.words = words
        self.slots = slots
        self.reserved = reserved
        self.wildcards = wildcards
    }

    typealias Next = (Int, PhraseMatcher.PathState) -> Void

    func walk(_ node: MatchNode, _ position: Int, _ state: PhraseMatcher.PathState, _ next: Next) {
        steps += 1
        guard steps < PhraseMatcher.stepBudget, node.canStart(words, at: position) else { return }
        switch node.kind {
        case .word(let word):
            guard position < words.count, words[position] == word else { return }
            var advanced = state
            advanced.literalWords += 1
            advanced.wildcardOpen = false
            next(position + 1, advanced)
        case .sequence(let items):
            walkSequence(items[...], position, state, next)
        case .choice(let options):
            for option in options { walk(option, position, state, next) }
        case .optional(let inner):
            walk(inner, position, state, next)
            next(position, state)
        case .slot(let name):
            walkSlot(name, position, state, next)
        }
    }

    private func walkSequence(_ items: ArraySlice<MatchNode>, _ position: Int, _ state: PhraseMatcher.PathState,
                              _ next: Next) {
        guard let first = items.first else { return next(position, state) }
        let rest = items.dropFirst()
        walk(first, position, state) { position, state in
            self.walkSequence(rest, position, state, next)
        }
    }

    private func walkSlot(_ name: String, _ position: Int, _ state: PhraseMatcher.PathState, _ next: Next) {
        guard let list = slots[name], state.slots[name] == nil else { return }
        for (length, value) in list.matches(words, at: position) {
            var bound = state
            bound.slots[name] = SlotMatch(text: words[position ..< position + length].joined(separator: " "),
                                          value: value, isWildcard: false)
            bound.wildcardOpen = false
            next(position + length, bound)
        }
        guard wildcards, list.wildcardWords > 0, !state.wildcardOpen else { return }
        var length = 0
        while length < list.wildcardWords, position + length < words.count,
              !reserved.contains(words[position + length]), !list.knownWords.contains(words[position + length]) {
            length += 1
            var bound = state
            bound.slots[name] = SlotMatch(text: words[position ..< position + length].joined(separator: " "),
                                          value: nil, isWildcard: true)
            bound.wildcardWords += length
            bound.wildcardOpen = true
            next(position + length, bound)
        }
    }
}
