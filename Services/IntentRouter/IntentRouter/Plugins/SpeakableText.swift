/// A plug-in's words as they may reach a user's screen and speech: at most `limit` characters,
/// without control characters (a NUL, an escape sequence) or the direction overrides that make
/// text display other than it reads; line breaks and tabs become spaces.
enum SpeakableText {
    static func clean(_ text: String, limit: Int = 2000) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: out.append(" ")
            case 0x00 ..< 0x20, 0x7F ... 0x9F, 0x202A ... 0x202E, 0x2066 ... 0x2069, 0x200E, 0x200F: continue
            default: out.append(scalar)
            }
        }
        return String(String(out).prefix(limit))
    }
}
