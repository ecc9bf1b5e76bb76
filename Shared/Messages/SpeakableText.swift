
/// A plug-in's words as they may reach a user's screen and speech: at most `limit` characters,
/// without control characters (a NUL; a terminal escape sequence goes whole, "\u{1b}[31m" and
/// all), the direction overrides that make text display other than it reads, or invisible
/// characters (zero-width, soft hyphen, byte-order mark, tags); line breaks (Unicode's too) and
/// tabs become spaces.
public enum SpeakableText {
    public static func clean(_ text: String, limit: Int = 2000) -> String {
        var out = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar.value {
            case 0x1B: skipEscapeSequence(&scalars)
            case 0x9B: skipControlSequence(&scalars)
            case 0x9D: skipString(&scalars)
            case 0x09, 0x0A, 0x0D, 0x2028, 0x2029: out.append(" ")
            case 0x00 ..< 0x20, 0x7F ... 0x9F, 0x202A ... 0x202E, 0x2066 ... 0x2069, 0x200B ... 0x200F, 0x00AD,
                 0xFEFF, 0xE0000 ... 0xE007F:
                continue
            default: out.append(scalar)
            }
        }
        return String(String(out).prefix(limit))
    }

    /// After ESC: "[" starts a control sequence (colours, cursor moves), "]" an operating system
    /// command (a window title, a link); any other character from "@" to "_" ends a short one.
    private static func skipEscapeSequence(_ scalars: inout String.UnicodeScalarView.Iterator) {
        var lookahead = scalars
        guard let next = lookahead.next() else { return }
        switch next {
        case "[": scalars = lookahead; skipControlSequence(&scalars)
        case "]": scalars = lookahead; skipString(&scalars)
        case "@" ... "_": scalars = lookahead
        default: break
        }
    }

    /// Parameter and intermediate characters up to the final one ("@" to "~"), which ends it; a
    /// character outside the sequence's range ends it too and is kept.
    private static func skipControlSequence(_ scalars: inout String.UnicodeScalarView.Iterator) {
        var lookahead = scalars
        while let scalar = lookahead.next() {
            switch scalar.value {
            case 0x20 ... 0x3F: scalars = lookahead
            case 0x40 ... 0x7E: scalars = lookahead; return
            default: return
            }
        }
    }

    /// Up to BEL or the string terminator (ESC "\\"), or the end of the text.
    private static func skipString(_ scalars: inout String.UnicodeScalarView.Iterator) {
        while let scalar = scalars.next() {
            if scalar.value == 0x07 || scalar.value == 0x9C { return }
            if scalar.value == 0x1B {
                var lookahead = scalars
                if lookahead.next() == "\\" { scalars = lookahead }
                return
            }
        }
    }
}

extension Snippet {
    /// The card with every text field cleaned as `SpeakableText` cleans a dialog.
    public var speakable: Snippet {
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
