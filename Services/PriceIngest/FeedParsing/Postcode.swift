/// UK postcode normalisation and validation.
enum Postcode {
    /// The postcode upper-cased, whitespace removed and one space put before the last three characters when
    /// that gives a valid UK postcode (`gl542ep` -> `GL54 2EP`); otherwise the upper-cased text with its
    /// whitespace collapsed, unchanged (`PEREGINE`, `S019 9AQ`), and `isValid` false.
    static func normalise(_ raw: String) -> (postcode: String, isValid: Bool) {
        let compact = String(String.UnicodeScalarView(raw.uppercased().unicodeScalars.filter {
            !TextNormaliser.isSpace($0)
        }))
        if compact.count >= 5 {
            let candidate = String(compact.dropLast(3)) + " " + String(compact.suffix(3))
            if isValid(candidate) { return (candidate, true) }
        }
        return (TextNormaliser.collapseWhitespace(raw.uppercased()), false)
    }

    /// True for `A9 9AA`, `A99 9AA`, `A9A 9AA`, `AA9 9AA`, `AA99 9AA`, `AA9A 9AA` (upper-case, one space).
    static func isValid(_ postcode: String) -> Bool {
        let halves = postcode.split(separator: " ", omittingEmptySubsequences: false)
        guard halves.count == 2 else { return false }
        let outward = Array(halves[0].unicodeScalars), inward = Array(halves[1].unicodeScalars)
        guard inward.count == 3, isDigit(inward[0]), isLetter(inward[1]), isLetter(inward[2]) else { return false }
        if halves[0] == "GIR", halves[1] == "0AA" { return true }
        switch outward.count {
        case 2:
            return isLetter(outward[0]) && isDigit(outward[1])
        case 3:
            return isLetter(outward[0]) && (
                (isDigit(outward[1]) && (isDigit(outward[2]) || isLetter(outward[2])))
                || (isLetter(outward[1]) && isDigit(outward[2])))
        case 4:
            return isLetter(outward[0]) && isLetter(outward[1]) && isDigit(outward[2])
                && (isDigit(outward[3]) || isLetter(outward[3]))
        default:
            return false
        }
    }

    /// True when `text` (one or two words) looks like a postcode, allowing the letter O for a zero, so that
    /// an address's embedded `CV23 OEZ` is recognised as a postcode and left out of a station's name.
    static func looksLikePostcode(_ text: String) -> Bool {
        // Its outward half has a digit: most words are out before any copy is made.
        guard (5...8).contains(text.utf8.count), text.utf8.contains(where: { (0x30...0x39).contains($0) }) else {
            return false
        }
        let compact = String(String.UnicodeScalarView(text.uppercased().unicodeScalars.filter {
            !TextNormaliser.isSpace($0)
        }))
        guard (5...7).contains(compact.count) else { return false }
        let scalars = Array(compact.unicodeScalars)
        let inward = scalars.suffix(3), outward = scalars.dropLast(3)
        guard let first = outward.first, isLetter(first),
              let inwardFirst = inward.first, isDigit(inwardFirst) || inwardFirst == "O",
              inward.dropFirst().allSatisfy(isLetter),
              outward.allSatisfy({ isLetter($0) || isDigit($0) }) else { return false }
        return outward.dropFirst().contains(where: isDigit)
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }
    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool { ("A"..."Z").contains(scalar) }
}
