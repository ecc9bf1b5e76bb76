/// Whitespace and letter-case clean-up shared by the address, brand and name rules.
enum TextNormaliser {
    /// Words kept in capitals when title-casing (`BP`, `MFG`, `PRL`, `UK`).
    private static let acronyms: Set<String> = ["bp", "mfg", "prl", "uk", "pfs", "msa", "sgn", "jet", "nhs", "rac"]
    /// Small words kept lower-case inside a title-cased phrase (`Newcastle-under-Lyme`, `Stoke on Trent`).
    private static let connectors: Set<String> = [
        "of", "on", "upon", "under", "in", "by", "and", "at", "de", "la", "le",
    ]

    /// True for any Unicode whitespace, including the no-break space U+00A0 (ASCII answered without tables).
    @inline(__always)
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x80 ? scalar.value == 0x20 || (0x09...0x0D).contains(scalar.value)
            : scalar.properties.isWhitespace
    }

    @inline(__always)
    static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x80 ? isASCIIUpper(scalar) || isASCIILower(scalar) : scalar.properties.isAlphabetic
    }

    @inline(__always)
    private static func isUpper(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x80 ? isASCIIUpper(scalar) : scalar.properties.isUppercase
    }

    @inline(__always)
    private static func isLower(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x80 ? isASCIILower(scalar) : scalar.properties.isLowercase
    }

    @inline(__always)
    private static func isASCIIUpper(_ scalar: Unicode.Scalar) -> Bool { (0x41...0x5A).contains(scalar.value) }
    @inline(__always)
    private static func isASCIILower(_ scalar: Unicode.Scalar) -> Bool { (0x61...0x7A).contains(scalar.value) }

    /// Runs of whitespace (including U+00A0, tabs and newlines) made one space, trimmed at both ends.
    static func collapseWhitespace(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if isSpace(scalar) {
                pendingSpace = !result.isEmpty
            } else {
                if pendingSpace { result.append(" ") }
                pendingSpace = false
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// True when the text has letters and they are all upper-case, or all lower-case.
    static func isSingleCase(_ text: String) -> Bool {
        var upper = false, lower = false
        for scalar in text.unicodeScalars {
            if isUpper(scalar) { upper = true } else if isLower(scalar) { lower = true }
            if upper && lower { return false }
        }
        return upper || lower
    }

    /// True when the text has letters and none is lower-case.
    static func isAllCaps(_ text: String) -> Bool {
        var sawUpper = false
        for scalar in text.unicodeScalars {
            if isLower(scalar) { return false }
            if isUpper(scalar) { sawUpper = true }
        }
        return sawUpper
    }

    /// True when the text holds at least one letter.
    static func hasLetter<S: StringProtocol>(_ text: S) -> Bool { text.unicodeScalars.contains(where: isLetter) }

    /// Small words inside hyphenated place names only (`Weston-super-Mare`, `Chorlton-cum-Hardy`, `Tyn-y-Parc`).
    private static let placeConnectors: Set<String> = connectors.union(["the", "cum", "sub", "super", "y", "en", "next"])

    /// A hyphenated place name cased as one whatever the feed did (`Stoke-on-trent`, `Sutton-In-Ashfield`,
    /// `Weston-Super-Mare` -> `Stoke-on-Trent`, `Sutton-in-Ashfield`, `Weston-super-Mare`): the first part
    /// and every part but a connector capitalised. A word whose parts are not each one case or
    /// capitalised (`McColl-x`) or that holds a digit is returned as it is.
    static func placeCased(_ word: String) -> String {
        let parts = word.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count > 1, !word.contains(where: \.isNumber), parts.allSatisfy({ part in
            part.isEmpty || isSingleCase(String(part)) || isSingleCase(String(part.dropFirst()))
        }) else { return word }
        return parts.enumerated().map { index, part in
            let lower = part.lowercased()
            if index > 0, placeConnectors.contains(lower) { return lower }
            return lower.prefix(1).uppercased() + lower.dropFirst()
        }.joined(separator: "-")
    }

    /// Title case, word by word (`104 BRADFORD STREET, BOLTON` -> `104 Bradford Street, Bolton`).
    ///
    /// Parts joined by `-` or `/` are cased one by one; parts holding a digit (`PO4`, `A143`), known
    /// acronyms and initials joined by `&` (`M&S`, `B&Q`) stay upper-case; connectors other than the first
    /// word are lower-cased; a letter after an apostrophe is lower-cased (`JOHN'S` -> `John's`).
    static func titleCased(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var part = ""
        var isFirstPart = true
        func flush() {
            guard !part.isEmpty else { return }
            result += casedPart(part, isFirst: isFirstPart)
            isFirstPart = false
            part = ""
        }
        for character in text {
            if character == " " || character == "-" || character == "/" || character == "," {
                flush()
                result.append(character)
            } else {
                part.append(character)
            }
        }
        flush()
        return result
    }

    private static func casedPart(_ part: String, isFirst: Bool) -> String {
        if part.utf8.contains(UInt8(ascii: "&")) {
            return ampersandJoined(part, isFirst: isFirst)
        }
        if part.contains(where: \.isNumber) {
            return ordinalSuffixLowered(part)
        }
        let lower = part.lowercased()
        let bare = lower.filter(\.isLetter)
        if acronyms.contains(bare) { return part.uppercased() }
        if !isFirst, connectors.contains(bare) { return lower }
        var cased = ""
        var capitalised = false
        var afterApostrophe = false
        for character in lower {
            if character.isLetter, !capitalised, !afterApostrophe {
                cased += character.uppercased()
                capitalised = true
            } else {
                cased.append(character)
            }
            afterApostrophe = character == "'" || character == "\u{2019}"
        }
        return cased
    }

    /// A part with `&` in it: initials (`M&S`, `P&O`, `B&Q`, `AT&T`: every side one or two letters) are
    /// upper-cased; longer sides are cased one by one (`SMITH&SONS` -> `Smith&Sons`).
    private static func ampersandJoined(_ part: String, isFirst: Bool) -> String {
        let sides = part.split(separator: "&", omittingEmptySubsequences: false).map(String.init)
        let filled = sides.filter { !$0.isEmpty }
        if !filled.isEmpty, filled.allSatisfy({ $0.count <= 2 && $0.allSatisfy(\.isLetter) }) {
            return part.uppercased()
        }
        return sides.enumerated().map { index, side in
            side.isEmpty ? side : casedPart(side, isFirst: isFirst && index == 0)
        }.joined(separator: "&")
    }

    /// `1ST` -> `1st`, `22ND` -> `22nd`; other parts with digits are upper-cased (`po4` -> `PO4`).
    private static func ordinalSuffixLowered(_ part: String) -> String {
        let lower = part.lowercased()
        for suffix in ["st", "nd", "rd", "th"] where lower.hasSuffix(suffix) {
            let head = lower.dropLast(2)
            if !head.isEmpty, head.allSatisfy(\.isNumber) { return lower }
        }
        return part.uppercased()
    }
}
