import Foundation

/// An utterance as the matcher sees it: lower-case words without punctuation.
public struct NormalizedUtterance: Sendable, Equatable {
    /// Every word, in order.
    public let words: [String]
    /// The words with filler phrases ("hey", "please", "what is") removed.
    public let content: [String]
}

/// Turns spoken text into words: case, punctuation (straight and curly apostrophes included),
/// accents and extra spaces stop mattering, and filler phrases are dropped (hassil's skip words).
public struct UtteranceNormalizer: Sendable {
    /// Filler phrases removed wherever they occur, longest first.
    public static let defaultSkipPhrases: [[String]] = [
        ["what", "is"], ["can", "you"], ["could", "you"], ["would", "you"], ["will", "you"], ["right", "now"],
        ["thank", "you"], ["hey"], ["hi"], ["hello"], ["please"], ["ok"], ["okay"], ["so"], ["um"], ["umm"],
        ["uh"], ["er"], ["erm"], ["oh"], ["och"], ["well"], ["whats"], ["now"], ["thanks"], ["kindly"], ["quickly"],
        ["today"], ["tonight"], ["cheers"], ["ta"], ["thanks", "a", "lot"], ["thanks", "so", "much"],
        ["thanks", "very", "much"], ["thank", "you", "so", "much"], ["thank", "you", "very", "much"], ["thats", "all"],
        // Another assistant's wake word left in the text ("Alexa, ask FuelBoard ...").
        ["alexa"], ["siri"], ["ok", "google"], ["okay", "google"], ["hey", "google"],
    ]

    /// Utterances longer than this many words are cut (nobody says more to an assistant).
    public static let maxWords = 40

    public let skipPhrases: [[String]]

    public init(skipPhrases: [[String]] = UtteranceNormalizer.defaultSkipPhrases) {
        self.skipPhrases = skipPhrases.sorted { $0.count > $1.count }
    }

    public func normalize(_ text: String) -> NormalizedUtterance {
        let words = Self.withoutStutters(Array(Self.words(text).prefix(Self.maxWords)))
        return NormalizedUtterance(words: words, content: removingSkipPhrases(words))
    }

    /// A word said twice in a row once ("for the the cheapest", "diesel diesel"), as speech
    /// recognisers write a stutter; numbers stay as said, and so do digits said after "point"
    /// ("nineteen point nine nine").
    static func withoutStutters(_ words: [String]) -> [String] {
        var kept: [String] = []
        kept.reserveCapacity(words.count)
        for word in words where word != kept.last || word.contains(where: \.isNumber) || isDecimalDigit(word, after: kept) {
            kept.append(word)
        }
        return kept
    }

    /// Whether `word` is a digit said in a decimal's run after "point" (`kept` so far).
    private static func isDecimalDigit(_ word: String, after kept: [String]) -> Bool {
        NumberWords.digit(word) != nil && kept.suffix(3).contains("point")
    }

    /// `words` without the filler phrases, except those in `keeping` (their words joined by a
    /// space): a plug-in's value that is a filler ("today") must reach its phrases.
    func removingSkipPhrases(_ words: [String], keeping: Set<String> = []) -> [String] {
        var kept: [String] = []
        var index = 0
        outer: while index < words.count {
            for phrase in skipPhrases where index + phrase.count <= words.count {
                if words[index ..< index + phrase.count].elementsEqual(phrase) {
                    if !keeping.isEmpty, keeping.contains(phrase.joined(separator: " ")) {
                        kept.append(contentsOf: phrase)  // whole: "now" of a kept "right now" stays too
                    }
                    index += phrase.count
                    continue outer
                }
            }
            kept.append(words[index])
            index += 1
        }
        return kept
    }

    /// Lower-cases, folds accents, deletes apostrophes ("what's" -> "whats"), keeps a decimal
    /// point between digits, drops a thousands separator ("10,000" -> "10000"), says a minus sign
    /// before a number ("-5" -> "minus 5"; not between words or numbers, "M4-5"), splits a number
    /// from a unit ("10km" -> "10 km"), and turns every other character into a word break.
    public static func words(_ text: String) -> [String] {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive],
                                  locale: nil).lowercased()
        let scalars = Array(folded.unicodeScalars.prefix(2000))
        var output = String.UnicodeScalarView()
        for (index, scalar) in scalars.enumerated() {
            if apostrophes.contains(scalar) { continue }
            let previous = index > 0 ? scalars[index - 1] : nil
            let next = index + 1 < scalars.count ? scalars[index + 1] : nil
            if CharacterSet.alphanumerics.contains(scalar) {
                if let previous, isDigit(previous), !isDigit(scalar), output.last.map(isDigit) == true {
                    output.append(" ")
                }
                output.append(scalar)
            } else if scalar == ".", let previous, let next, isDigit(previous), isDigit(next) {
                output.append(scalar)
            } else if scalar == ",", isThousandsSeparator(at: index, in: scalars) {
                continue
            } else if minusSigns.contains(scalar), let next, isDigit(next),
                      previous.map({ !CharacterSet.alphanumerics.contains($0) }) ?? true {
                output.append(contentsOf: " minus ".unicodeScalars)  // "-5 miles" is not 5 miles
            } else {
                output.append(" ")
            }
        }
        return String(output).split(separator: " ").map(String.init)
    }

    private static let minusSigns: Set<Unicode.Scalar> = ["-", "\u{2212}", "\u{2013}"]

    private static let apostrophes: Set<Unicode.Scalar> = ["'", "\u{2019}", "\u{2018}", "\u{02BC}", "`", "\u{00B4}"]

    /// A comma after a digit and before exactly three digits ("10,000"; not "1,5" or "1,5000").
    private static func isThousandsSeparator(at index: Int, in scalars: [Unicode.Scalar]) -> Bool {
        guard index > 0, isDigit(scalars[index - 1]) else { return false }
        let group = scalars[(index + 1)...].prefix(4)
        let digits = group.prefix { isDigit($0) }.count
        return digits == 3
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        ("0" ... "9").contains(scalar)
    }
}
