/// A template node prepared for matching: besides its shape it knows whether it can match no
/// words at all, and which words it can start with, so the walk drops a branch the moment the
/// next word cannot begin it (FIRST-set pruning; most alternatives fail on their first word).
final class MatchNode: Sendable {
    enum Kind: Sendable {
        case word(String)
        case sequence([MatchNode])
        case choice([MatchNode])
        case optional(MatchNode)
        case slot(String)
    }

    let kind: Kind
    /// True when the node can match zero words.
    let nullable: Bool
    /// The words the node can start with; nil when it can start with any word (a number, a wildcard).
    let first: Set<String>?

    private init(_ kind: Kind, nullable: Bool, first: Set<String>?) {
        self.kind = kind
        self.nullable = nullable
        self.first = first
    }

    /// Prepares `node`; `slotFirst` gives the words a slot can start with (nil: any word).
    convenience init(_ node: TemplateNode, slotFirst: (String) -> Set<String>?) {
        switch node {
        case .word(let word):
            self.init(.word(word), nullable: false, first: [word])
        case .slot(let name):
            self.init(.slot(name), nullable: false, first: slotFirst(name))
        case .optional(let inner):
            let child = MatchNode(inner, slotFirst: slotFirst)
            self.init(.optional(child), nullable: true, first: child.first)
        case .choice(let options):
            let children = options.map { MatchNode($0, slotFirst: slotFirst) }
            self.init(.choice(children), nullable: children.contains { $0.nullable },
                      first: Self.union(children.map(\.first)))
        case .sequence(let items):
            let children = items.map { MatchNode($0, slotFirst: slotFirst) }
            let leading = children.prefix { $0.nullable } + children.drop { $0.nullable }.prefix(1)
            self.init(.sequence(children), nullable: children.allSatisfy(\.nullable),
                      first: Self.union(leading.map(\.first)))
        }
    }

    /// False when the node cannot match starting at `position` (it must take a word, and the
    /// word there cannot begin it).
    func canStart(_ words: [String], at position: Int) -> Bool {
        guard !nullable else { return true }
        guard position < words.count else { return false }
        return first?.contains(words[position]) ?? true
    }

    private static func union(_ sets: [Set<String>?]) -> Set<String>? {
        var result = Set<String>()
        for set in sets {
            guard let set else { return nil }
            result.formUnion(set)
        }
        return result
    }
}
