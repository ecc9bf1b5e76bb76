import Messages

/// A plug-in's words as they may reach a user's screen and speech: at most `limit` characters,
/// without control characters (a NUL, an escape sequence), the direction overrides that make text
/// display other than it reads, or invisible characters (zero-width, soft hyphen, byte-order mark,
/// tags); line breaks (Unicode's too) and tabs become spaces.
enum SpeakableText {
    static func clean(_ text: String, limit: Int = 2000) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D, 0x2028, 0x2029: out.append(" ")
            case 0x00 ..< 0x20, 0x7F ... 0x9F, 0x202A ... 0x202E, 0x2066 ... 0x2069, 0x200B ... 0x200F, 0x00AD,
                 0xFEFF, 0xE0000 ... 0xE007F:
                continue
            default: out.append(scalar)
            }
        }
        return String(String(out).prefix(limit))
    }
}

extension Snippet {
    /// The card with every text field cleaned as `SpeakableText` cleans a dialog.
    var speakable: Snippet {
        var card = self
        card.title = SpeakableText.clean(title, limit: 200)
        card.subtitle = subtitle.map { SpeakableText.clean($0, limit: 200) }
        card.freshness = freshness.map { SpeakableText.clean($0, limit: 200) }
        card.price = price.map { SpeakableText.clean($0, limit: 50) }
        card.id = id.map { SpeakableText.clean($0, limit: 200) }
        card.postcode = postcode.map { SpeakableText.clean($0, limit: 20) }
        return card
    }
}
