import Foundation
import Messages

/// Builds a short speakable station name from brand and address ("Tesco Selby", "Esso Bolton", "BP West Hill").
enum StationName {
    /// The longest name produced.
    static let maxLength = 32

    /// `brand` followed by the address's locality, shortened to `maxLength` by dropping leading words; the
    /// brand alone when the address gives nothing usable. Never empty when `brand` is not empty.
    static func make(brand: String, address: String) -> String {
        make(brand: brand, words: locality(of: address))
    }

    private static func make(brand: String, words locality: [String]) -> String {
        var words = locality
        let brandWords = brand.lowercased().split(separator: " ").map(String.init)
        if !brandWords.isEmpty, words.count >= brandWords.count,
           words.prefix(brandWords.count).map({ $0.lowercased() }) == brandWords {
            words.removeFirst(brandWords.count)
        }
        while !words.isEmpty {
            let name = ([brand] + words).joined(separator: " ")
            if name.count <= maxLength { return name }
            words.removeFirst()
        }
        return TextClip.clip(brand, to: maxLength)
    }

    /// `stations` with each name that several of them share (five "Esso Stoke-on-Trent" in one feed)
    /// replaced, where the address allows, by the brand and the district or street before the town,
    /// as in a big city ("Esso Hartshill Road"): a voice answer cannot tell same-named stations apart.
    /// A station whose address has nothing before its town keeps the shared name.
    static func distinguished(_ stations: [Station]) -> [Station] {
        var counts: [String: Int] = [:]
        for station in stations { counts[station.name, default: 0] += 1 }
        guard counts.values.contains(where: { $0 > 1 }) else { return stations }
        return stations.map { station in
            guard counts[station.name, default: 0] > 1,
                  let specific = beforeTown(brand: station.brand, address: station.address) else { return station }
            var renamed = station
            renamed.name = specific
            return renamed
        }
    }

    /// Brand and the district or street before the address's town (`Esso Hartshill Road` for
    /// `Hartshill Road, Stoke-on-Trent`), nil when nothing usable comes before it.
    static func beforeTown(brand: String, address: String) -> String? {
        guard let words = placeBefore(townOrStreet(of: address), in: address) else { return nil }
        let name = make(brand: brand, words: words)
        return name == brand ? nil : name
    }

    /// The district or street written before `town` in `address`, when it names a place; nil otherwise.
    private static func placeBefore(_ town: [String], in address: String) -> [String]? {
        let text = town.joined(separator: " ")
        guard !text.isEmpty, let start = lastStart(of: text, in: address) else { return nil }
        let words = townOrStreet(of: String(address[..<start]))
        return names(words) ? words : nil
    }

    /// The words naming where the station is: the town when one can be found, else the street; empty when
    /// the address has no word with a letter.
    ///
    /// The address is cut into parts at commas and at a lone `/`; an embedded postcode, trailing counties and
    /// anything before `near`/`nr` are dropped first. With several parts, the last part is used whole when it
    /// has one or two words and does not end in a street word (`104 BRADFORD STREET, BOLTON` -> `Bolton`);
    /// otherwise, and for addresses with no commas (`Tesco Express Doncaster Road Brayton Selby`), see
    /// `phraseLocality`. In a big city (`PlaceWords.bigCities`), whose name alone would be dozens of
    /// stations' ("Asda London"), the district or street before it is used (`Bugsby Way, Charlton,
    /// London` -> `Charlton`; `112 Vallance Road, London` -> `Vallance Road`).
    static func locality(of address: String) -> [String] {
        let place = townOrStreet(of: address)
        guard PlaceWords.bigCities.contains(place.joined(separator: " ").lowercased()) else { return place }
        return placeBefore(place, in: address) ?? place
    }

    /// Where the last occurrence of `text` in `address` starts, ignoring case. ASCII (nearly every
    /// address) is compared by bytes; Foundation's search (through `NSString`, a fifth of a large
    /// feed's parse) serves the rest.
    private static func lastStart(of text: String, in address: String) -> String.Index? {
        let needle = Array(text.utf8), haystack = address.utf8
        guard needle.allSatisfy({ $0 < 0x80 }), haystack.allSatisfy({ $0 < 0x80 }) else {
            return address.range(of: text, options: [.backwards, .caseInsensitive])?.lowerBound
        }
        func folded(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
        let bytes = Array(haystack)
        guard bytes.count >= needle.count else { return nil }
        for start in stride(from: bytes.count - needle.count, through: 0, by: -1)
        where (0..<needle.count).allSatisfy({ folded(bytes[start + $0]) == folded(needle[$0]) }) {
            return haystack.index(haystack.startIndex, offsetBy: start)
        }
        return nil
    }

    /// Whether `words` name a place: not empty, and not one word any site could have ("Park" of
    /// "Springhill Retail Park", "Services").
    private static func names(_ words: [String]) -> Bool {
        guard let first = words.first else { return false }
        return words.count > 1 || !PlaceWords.genericSiteWords.contains(first.lowercased())
    }

    private static func townOrStreet(of address: String) -> [String] {
        var parts = Word.parts(of: address).compactMap { part -> [Word]? in
            var words = withoutTrailingRegion(withoutTrailingPostcode(part))
            if let near = words.lastIndex(where: { PlaceWords.nearWords.contains($0.lower) }) {
                words = near + 1 < words.count ? Array(words[(near + 1)...]) : Array(words[..<near])
            }
            return words.isEmpty ? nil : words
        }
        while let last = parts.last, !last.contains(where: \.hasLetter) { parts.removeLast() }
        guard var words = parts.last else { return [] }
        // House numbers go ("290-290A Lewisham Road"): a place's name starts with a letter.
        while let first = words.first, !first.hasLetter || first.text.first?.isNumber == true, words.count > 1 {
            words.removeFirst()
        }
        if let only = words.first, !only.hasLetter { words.removeFirst() }
        guard let last = words.last else { return [] }
        if parts.count > 1, words.count <= 2, !last.isStreetWord { return spoken(words) }
        return spoken(phraseLocality(words))
    }

    /// The locality in a run of words with no commas:
    /// - after the last street word, the town at the end (`Doncaster Road Brayton Selby` -> `Selby`), unless
    ///   only directions follow it (`Garstang Road East`);
    /// - else, up to four words, the whole run (`West Hill`, `A419 Southbound`, `Salisbury Hall Gardens`);
    /// - else the last two words when they end in a street word (`...Sticklepath Hill`), or the town at the end.
    private static func phraseLocality(_ words: [Word]) -> [Word] {
        if let street = words.lastIndex(where: \.isStreetWord), street < words.count - 1 {
            let after = Array(words[(street + 1)...])
            let onlyDirections = after.allSatisfy { PlaceWords.directions.contains($0.lower) }
            let town = town(endingWith: after)
            let generic = town.count == 1 && PlaceWords.genericSiteWords.contains(town[0].lower)
            if !onlyDirections, !generic, after.last?.hasLetter == true { return town }
        }
        if words.count <= 4 { return words }
        if words.last?.isStreetWord == true { return Array(words.suffix(2)) }
        return town(endingWith: words)
    }

    /// Removes a postcode at the end of a part (as one or two words, `O` allowed for a zero).
    private static func withoutTrailingPostcode(_ words: [Word]) -> [Word] {
        if words.count >= 2, Postcode.looksLikePostcode(words[words.count - 2].text + words[words.count - 1].text) {
            return Array(words.dropLast(2))
        }
        if let last = words.last, Postcode.looksLikePostcode(last.text) { return Array(words.dropLast()) }
        return words
    }

    /// Removes a county or nation at the end of a part (`... Road East Lothian` -> `... Road`).
    private static func withoutTrailingRegion(_ words: [Word]) -> [Word] {
        guard let last = words.last, PlaceWords.regionLastWords.contains(Substring(last.lower)) else { return words }
        for length in stride(from: min(4, words.count), through: 1, by: -1) {
            let tail = words.suffix(length).map(\.lower).joined(separator: " ")
            if PlaceWords.regions.contains(tail) { return Array(words.dropLast(length)) }
        }
        return words
    }

    /// The town at the end of a run of words: the last word, with the words it needs before it
    /// (`Market Harborough`, `St Helens`, `Milton Keynes`, `Stoke on Trent`).
    private static func town(endingWith words: [Word]) -> [Word] {
        var start = words.count - 1
        if start > 0, PlaceWords.townSuffixes.contains(words[start].lower) { start -= 1 }
        while start > 0 {
            let before = words[start - 1].lower, current = words[start].lower
            guard PlaceWords.connectors.contains(before) || PlaceWords.townPrefixes.contains(before)
                    || PlaceWords.connectors.contains(current) else { break }
            start -= 1
        }
        return Array(words[start...])
    }

    /// Words cased for speaking: single-case words title-cased, connectors after the first lower-cased,
    /// hyphenated place names cased as one (`Stoke-on-trent` -> `Stoke-on-Trent`).
    /// The words as a name says them: case evened out, and brackets and stops around a word
    /// dropped ("Esso (A749)", "Esso Dumbarton Road." were said as written).
    private static func spoken(_ words: [Word]) -> [String] {
        words.compactMap { word -> Word? in
            let bare = Self.unwrapped(word.text)
            return bare.isEmpty ? nil : bare.utf8.count == word.text.utf8.count ? word : Word(bare)
        }.enumerated().map { index, word in
            if index > 0, PlaceWords.connectors.contains(word.lower) { return word.lower }
            if TextNormaliser.isSingleCase(word.text) { return TextNormaliser.titleCased(word.text) }
            return word.text.utf8.contains(UInt8(ascii: "-")) ? TextNormaliser.placeCased(word.text) : word.text
        }
    }

    /// `word` without the brackets, stops and quotes around it (`()[]{}.,;:!?"*`, all ASCII: cut
    /// by bytes, so never inside a character).
    private static func unwrapped(_ word: String) -> Substring {
        func wraps(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"),
                 UInt8(ascii: "}"), UInt8(ascii: "."), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"),
                 UInt8(ascii: "!"), UInt8(ascii: "?"), UInt8(ascii: "\""), UInt8(ascii: "*"): true
            default: false
            }
        }
        let bytes = word.utf8
        guard let first = bytes.firstIndex(where: { !wraps($0) }), let last = bytes.lastIndex(where: { !wraps($0) }) else {
            return ""
        }
        return word[first...last]
    }
}

/// One word of an address, with its lower-case form computed once.
private struct Word {
    let text: String
    let lower: String
    let hasLetter: Bool

    init(_ text: Substring) {
        self.text = String(text)
        lower = self.text.lowercased()
        hasLetter = TextNormaliser.hasLetter(text)
    }

    var isStreetWord: Bool { PlaceWords.streetWords.contains(lower) }

    /// The address's words grouped into parts, split at commas and at words that are a lone `/`.
    /// (Splits on UTF-8 bytes: `,` `/` and space are ASCII, so every cut falls between scalars.)
    static func parts(of address: String) -> [[Word]] {
        var parts: [[Word]] = []
        var current: [Word] = []
        let bytes = address.utf8
        var wordStart = bytes.startIndex
        func endWord(at end: String.Index) {
            guard wordStart < end else { return }
            let token = address[wordStart..<end]
            if token == "/" {
                if !current.isEmpty { parts.append(current) }
                current = []
            } else {
                current.append(Word(token))
            }
        }
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: ",") {
                endWord(at: index)
                if byte == UInt8(ascii: ","), !current.isEmpty {
                    parts.append(current)
                    current = []
                }
                wordStart = bytes.index(after: index)
            }
            index = bytes.index(after: index)
        }
        endWord(at: bytes.endIndex)
        if !current.isEmpty { parts.append(current) }
        return parts
    }
}
