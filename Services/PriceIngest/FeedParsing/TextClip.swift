/// Bounds untrusted text before it goes into a message, so a hostile feed cannot bloat logs.
enum TextClip {
    /// `text` cut to at most `limit` characters, with `…` marking a cut.
    static func clip(_ text: String, to limit: Int = 40) -> String {
        guard text.count > limit else { return text }
        return String(text.prefix(max(0, limit - 1))) + "…"
    }

    /// A number as a short text: no trailing `.0` for whole values.
    static func number(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value))
        }
        return String(value)
    }
}
