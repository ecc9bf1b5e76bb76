/// A compiled phrase template: hassil's and App Shortcuts' small language.
///
/// Syntax: plain words; `(a|b c)` alternatives; `[optional words]` (also `[a|b]`); `{slot}` a
/// value from a slot list; `<rule>` an expansion rule defined once and reused.
public indirect enum TemplateNode: Sendable, Equatable {
    case word(String)
    case sequence([TemplateNode])
    case choice([TemplateNode])
    case optional(TemplateNode)
    case slot(String)

    /// Every slot name the template can bind.
    var slotNames: Set<String> {
        switch self {
        case .word: []
        case .slot(let name): [name]
        case .optional(let inner): inner.slotNames
        case .sequence(let items), .choice(let items): items.reduce(into: Set()) { $0.formUnion($1.slotNames) }
        }
    }

    /// Slots some path through the template would have to bind twice (`{n} cars for {n} pounds`):
    /// a slot binds once, so such a path never matches.
    var slotsOnAPathTwice: Set<String> {
        switch self {
        case .word, .slot: []
        case .optional(let inner): inner.slotsOnAPathTwice
        case .choice(let items): items.reduce(into: Set()) { $0.formUnion($1.slotsOnAPathTwice) }
        case .sequence(let items):
            // Within an item, or named by two of them.
            items.reduce(into: (twice: Set<String>(), before: Set<String>())) { found, item in
                let names = item.slotNames
                found.twice.formUnion(item.slotsOnAPathTwice.union(names.intersection(found.before)))
                found.before.formUnion(names)
            }.twice
        }
    }

    /// Every literal word the template contains.
    var literalWords: Set<String> {
        switch self {
        case .word(let word): [word]
        case .slot: []
        case .optional(let inner): inner.literalWords
        case .sequence(let items), .choice(let items): items.reduce(into: Set()) { $0.formUnion($1.literalWords) }
        }
    }

    /// Words every path through the template contains: an utterance without one of them
    /// cannot match, so the matcher skips the template without walking it.
    var requiredWords: Set<String> {
        switch self {
        case .word(let word): [word]
        case .slot, .optional: []
        case .sequence(let items): items.reduce(into: Set()) { $0.formUnion($1.requiredWords) }
        case .choice(let items):
            items.dropFirst().reduce(items.first?.requiredWords ?? []) { $0.intersection($1.requiredWords) }
        }
    }

    /// True when every path through the template binds `slot` (so a phrase that must name the
    /// app cannot leave it out).
    func requires(slot name: String) -> Bool {
        switch self {
        case .word: false
        case .slot(let slot): slot == name
        case .optional: false
        case .sequence(let items): items.contains { $0.requires(slot: name) }
        case .choice(let items): !items.isEmpty && items.allSatisfy { $0.requires(slot: name) }
        }
    }
}

/// A template that does not parse, with where and why.
public struct TemplateError: Error, Sendable, CustomStringConvertible {
    public let template: String
    public let reason: String
    public var description: String { "template \"\(template)\": \(reason)" }
}

/// Parses template text into a `TemplateNode`, expanding `<rule>` references from `rules`.
public struct TemplateParser: Sendable {
    public let rules: [String: String]

    public init(rules: [String: String] = [:]) {
        self.rules = rules
    }

    public func parse(_ text: String) throws(TemplateError) -> TemplateNode {
        try parse(text, expanding: [])
    }

    private func parse(_ text: String, expanding: Set<String>) throws(TemplateError) -> TemplateNode {
        var cursor = Cursor(characters: Array(text))
        let node = try parseAlternatives(&cursor, text: text, expanding: expanding)
        if let stray = cursor.peek {
            throw TemplateError(template: text, reason: "unexpected '\(stray)' at \(cursor.position)")
        }
        return node
    }

    private struct Cursor {
        let characters: [Character]
        var position = 0
        var peek: Character? { position < characters.count ? characters[position] : nil }
        mutating func advance() { position += 1 }
    }

    private static let closers: Set<Character> = [")", "]", "|", "}", ">"]
    private static let specials: Set<Character> = ["(", ")", "[", "]", "{", "}", "<", ">", "|"]

    private func parseAlternatives(_ cursor: inout Cursor, text: String, expanding: Set<String>)
        throws(TemplateError) -> TemplateNode
    {
        var options = [try parseSequence(&cursor, text: text, expanding: expanding)]
        while cursor.peek == "|" {
            cursor.advance()
            options.append(try parseSequence(&cursor, text: text, expanding: expanding))
        }
        return options.count == 1 ? options[0] : .choice(options)
    }

    private func parseSequence(_ cursor: inout Cursor, text: String, expanding: Set<String>)
        throws(TemplateError) -> TemplateNode
    {
        var items: [TemplateNode] = []
        while let character = cursor.peek, !Self.closers.contains(character) {
            switch character {
            case "(", "[":
                cursor.advance()
                let inner = try parseAlternatives(&cursor, text: text, expanding: expanding)
                let closer: Character = character == "(" ? ")" : "]"
                guard cursor.peek == closer else {
                    throw TemplateError(template: text, reason: "missing '\(closer)' at \(cursor.position)")
                }
                cursor.advance()
                items.append(character == "(" ? inner : .optional(inner))
            case "{", "<":
                cursor.advance()
                let closer: Character = character == "{" ? "}" : ">"
                let name = readName(&cursor)
                guard cursor.peek == closer, !name.isEmpty else {
                    throw TemplateError(template: text, reason: "bad name before \(cursor.position)")
                }
                cursor.advance()
                items.append(character == "{" ? .slot(name) : try expand(rule: name, text: text, expanding: expanding))
            case " ", "\t", "\n":
                cursor.advance()
            default:
                let run = readWord(&cursor)
                items.append(contentsOf: UtteranceNormalizer.words(run).map(TemplateNode.word))
            }
        }
        return items.count == 1 ? items[0] : .sequence(items)
    }

    private func expand(rule name: String, text: String, expanding: Set<String>) throws(TemplateError) -> TemplateNode {
        guard let body = rules[name] else { throw TemplateError(template: text, reason: "unknown rule <\(name)>") }
        guard !expanding.contains(name) else {
            throw TemplateError(template: text, reason: "rule <\(name)> refers to itself")
        }
        return try parse(body, expanding: expanding.union([name]))
    }

    private func readName(_ cursor: inout Cursor) -> String {
        var name = ""
        while let character = cursor.peek, character.isLetter || character.isNumber || character == "_" {
            name.append(character)
            cursor.advance()
        }
        return name
    }

    private func readWord(_ cursor: inout Cursor) -> String {
        var run = ""
        while let character = cursor.peek, !Self.specials.contains(character), !character.isWhitespace {
            run.append(character)
            cursor.advance()
        }
        return run
    }
}
