/// Whitespace tests without Foundation's bridging (`trimmingCharacters(in:)` goes through
/// `NSString`, which showed up in every ask's profile). Whitespace here is Unicode's White_Space
/// property: the same scalars as `CharacterSet.whitespacesAndNewlines`.
extension StringProtocol {
    /// True when the text is empty or only whitespace.
    public var isBlank: Bool {
        unicodeScalars.allSatisfy(\.properties.isWhitespace)
    }

    /// The text without leading and trailing whitespace.
    public var trimmingWhitespace: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(String.UnicodeScalarView(scalars[first...last]))
    }
}
