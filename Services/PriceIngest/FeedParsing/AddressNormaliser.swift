/// Cleans a feed's address: whitespace, commas, trailing full stops, ALL-CAPS.
enum AddressNormaliser {
    /// The longest address kept.
    static let maxLength = 200

    /// The address with whitespace (including U+00A0) collapsed and trimmed, one space after each comma and
    /// none before, empty comma parts removed, trailing `.` and `,` dropped, and title case when it was
    /// written all in capitals (`104 BRADFORD STREET, BOLTON` -> `104 Bradford Street, Bolton`).
    static func normalise(_ raw: String) -> String {
        let parts = raw.split(separator: ",", omittingEmptySubsequences: false)
            .map { TextNormaliser.collapseWhitespace(String($0)) }
            .filter { !$0.isEmpty }
        var address = parts.joined(separator: ", ")
        while let last = address.unicodeScalars.last, last == "." || last == "," || TextNormaliser.isSpace(last) {
            address.unicodeScalars.removeLast()
        }
        if TextNormaliser.isAllCaps(address) {
            address = postcodesUpperCased(TextNormaliser.titleCased(address))
        }
        return address
    }

    /// `address` with every pair of words that makes a valid postcode in capitals again: title case
    /// read the inward half `8ND` of `YO8 8ND` as an ordinal (`8nd`).
    static func postcodesUpperCased(_ address: String) -> String {
        var words = address.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        guard words.count >= 2 else { return address }
        for index in 0..<(words.count - 1) {
            // An inward half is a digit and two letters (and the part's comma): others need no look.
            let next = words[index + 1].utf8
            guard (3...4).contains(next.count), let first = next.first, (0x30...0x39).contains(first) else { continue }
            let outward = words[index].uppercased(), inward = words[index + 1].uppercased()
            let bareInward = inward.hasSuffix(",") ? String(inward.dropLast()) : inward
            if Postcode.isValid(outward + " " + bareInward) {
                words[index] = outward
                words[index + 1] = inward
            }
        }
        return words.joined(separator: " ")
    }
}
