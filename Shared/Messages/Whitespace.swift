/// Whitespace tests without Foundation's bridging (`trimmingCharacters(in:)` goes through
/// `NSString`, which showed up in every ask's profile). Whitespace here is what
/// `CharacterSet.whitespacesAndNewlines` holds: Unicode's White_Space property and U+200B
/// (zero width space).
extension Unicode.Scalar {
    public var isWhitespaceOrNewline: Bool {
        // ASCII answered from its five control codes and the space: Unicode's property lookup
        // costs about a thousand instructions, and nearly every scalar tested is ASCII.
        if value < 0x80 { return value == 0x20 || (0x09...0x0D).contains(value) }
        return properties.isWhitespace || value == 0x200B
    }
}

extension StringProtocol {
    /// True when the text is empty or only whitespace.
    public var isBlank: Bool {
        unicodeScalars.allSatisfy(\.isWhitespaceOrNewline)
    }

    /// The text without leading and trailing whitespace.
    public var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.isWhitespaceOrNewline }),
              let last = scalars.lastIndex(where: { !$0.isWhitespaceOrNewline }) else { return "" }
        return String(self[first..<scalars.index(after: last)])
    }
}
