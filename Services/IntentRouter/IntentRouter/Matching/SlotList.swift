/// The values one `{slot}` can take.
public struct SlotList: Sendable {
    /// What the words of a slot stand for.
    public enum Kind: Sendable {
        /// Phrases (synonyms) mapping to values; `nil` marks a phrase the slot knows but that
        /// has no supported value ("hydrogen" for a fuel).
        case phrases([(words: [String], value: String?)])
        /// A number, as digits ("10", "7.5") or words ("ten", "twenty five").
        case number
    }

    public let name: String
    public let kind: Kind
    /// How many unknown words the slot may take at most when a template allows a wildcard
    /// (0: none). Such words come back with `value == nil` and `isWildcard == true`.
    public let wildcardWords: Int
    /// Every word of every phrase: a wildcard never takes one of them.
    let knownWords: Set<String>
    /// The words a listed phrase starts with; nil for numbers (any word may be one).
    let firstWords: Set<String>?
    /// Phrases by their first word.
    private let byFirstWord: [String: [(words: [String], value: String?)]]

    public init(name: String, kind: Kind, wildcardWords: Int = 0) {
        self.name = name
        self.kind = kind
        self.wildcardWords = wildcardWords
        if case .phrases(let entries) = kind {
            knownWords = Set(entries.flatMap(\.words))
            byFirstWord = Dictionary(grouping: entries, by: { $0.words[0] })
            firstWords = Set(byFirstWord.keys)
        } else {
            knownWords = []
            byFirstWord = [:]
            firstWords = nil
        }
    }

    /// A phrase list from `value: [synonyms]`; each synonym is normalised like an utterance.
    public static func synonyms(_ name: String, _ values: [(value: String?, phrases: [String])],
                                wildcardWords: Int = 0) -> SlotList {
        var entries: [(words: [String], value: String?)] = []
        for (value, phrases) in values {
            for phrase in phrases {
                let words = UtteranceNormalizer.words(phrase)
                if !words.isEmpty { entries.append((words, value)) }
            }
        }
        return SlotList(name: name, kind: .phrases(entries), wildcardWords: wildcardWords)
    }

    /// Every way this slot can match at `position`: how many words it takes and what it binds.
    func matches(_ words: [String], at position: Int) -> [(length: Int, value: String?)] {
        switch kind {
        case .phrases:
            guard position < words.count, let entries = byFirstWord[words[position]] else { return [] }
            return entries.compactMap { entry in
                let end = position + entry.words.count
                guard end <= words.count, words[position ..< end].elementsEqual(entry.words) else { return nil }
                return (entry.words.count, entry.value)
            }
        case .number:
            return NumberWords.parse(words, at: position).map { [($0.length, NumberWords.format($0.value))] } ?? []
        }
    }
}

/// Numbers said as digits or English words, up to ninety-nine and "a hundred", with "a" / "an"
/// for one ("within a mile"), "half" / "half a" for a half ("half a mile") and "... and a half"
/// after a number ("two and a half miles"), "point" and digits after one ("one point five"),
/// "a hundred and one", and "minus" before one.
public enum NumberWords {
    static let units = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                        "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
                        "eighteen", "nineteen"]
    static let tens = ["twenty": 20, "thirty": 30, "forty": 40, "fourty": 40, "fifty": 50, "sixty": 60,
                       "seventy": 70, "eighty": 80, "ninety": 90]
    static let articles: Set<String> = ["a", "an"]
    static let negations: Set<String> = ["minus", "negative"]

    /// The number starting at `position` and how many words it used, or nil. "minus" or
    /// "negative" before a number makes it negative, for the caller to refuse as out of range.
    public static func parse(_ words: [String], at position: Int) -> (value: Double, length: Int)? {
        if position < words.count, negations.contains(words[position]),
           let number = parse(words, at: position + 1), number.value > 0 {
            return (-number.value, number.length + 1)
        }
        guard var number = wholeOrHalf(words, at: position) else { return nil }
        var next = position + number.length
        // "a hundred and one": the hundred and what follows it.
        if number.value == 100, next + 2 <= words.count, words[next] == "and", !articles.contains(words[next + 1]),
           let rest = wholeOrHalf(words, at: next + 1), (1 ... 99).contains(rest.value), rest.value == rest.value.rounded() {
            number = (100 + rest.value, number.length + 1 + rest.length)
            next = position + number.length
        }
        // "one point five", "12 point 5": the digits after "point" (up to three).
        if number.value == number.value.rounded(), next + 1 < words.count, words[next] == "point" {
            var digits = ""
            while digits.count < 3, next + 1 + digits.count < words.count,
                  let digit = Self.digit(words[next + 1 + digits.count]) {
                digits += String(digit)
            }
            if !digits.isEmpty, let fraction = Double("0." + digits) {
                return (number.value + fraction, number.length + 1 + digits.count)
            }
        }
        if number.value >= 1, next + 3 <= words.count, words[next] == "and", articles.contains(words[next + 1]),
           words[next + 2] == "half" {
            return (number.value + 0.5, number.length + 3)
        }
        return number
    }

    /// A digit said as a word ("five") or written ("5").
    static func digit(_ word: String) -> Int? {
        if word.count == 1, let digit = Int(word) { return digit }
        return units.firstIndex(of: word).flatMap { $0 <= 9 ? $0 : nil }
    }

    private static func wholeOrHalf(_ words: [String], at position: Int) -> (value: Double, length: Int)? {
        guard position < words.count else { return nil }
        let word = words[position]
        let following = position + 1 < words.count ? words[position + 1] : nil
        if word.first?.isNumber == true, let value = Double(word), value.isFinite { return (value, 1) }
        if let unit = units.firstIndex(of: word) {
            return following == "hundred" && unit == 1 ? (100, 2) : (Double(unit), 1)
        }
        if let ten = tens[word] {
            if let following, let unit = units.firstIndex(of: following), (1 ... 9).contains(unit) {
                return (Double(ten + unit), 2)
            }
            return (Double(ten), 1)
        }
        if articles.contains(word) { return following == "hundred" ? (100, 2) : (1, 1) }
        if word == "half" { return following.map(articles.contains) == true ? (0.5, 2) : (0.5, 1) }
        return nil
    }

    /// "10" for 10, "7.5" for 7.5.
    public static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
