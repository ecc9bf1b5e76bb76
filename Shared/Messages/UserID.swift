/// The rule for a user id, the same in every service that takes one: intent-router refusing
/// what location-cache would have taken, or the other way round, left an assistant that said
/// "success" and then could not find the location it had just stored (ids of 129-200 characters).
public enum UserID {
    /// Accepted length, in characters.
    public static let length = 1...128
    /// Upper bound on the UTF-8 size (a few characters can hide many combining marks).
    public static let maxBytes = 512

    /// A user id: 1...128 characters, no control characters; `bad_request` naming the rule
    /// (never the id: it may be personal).
    public static func check(_ user: String) throws(ServiceError) {
        // Printable ASCII, as almost every id is: one character per byte and no control
        // characters, so the byte count decides without walking graphemes and scalar properties.
        if user.utf8.isPrintableASCII, length.contains(user.utf8.count) { return }
        guard length.contains(user.count), user.utf8.count <= maxBytes else {
            throw .badRequest("user must be \(length.lowerBound) to \(length.upperBound) characters")
        }
        guard !user.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .badRequest("user must not contain control characters")
        }
    }
}
