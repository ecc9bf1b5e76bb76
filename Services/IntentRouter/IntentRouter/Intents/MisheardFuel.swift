import Messages

/// A fuel word (or a search word: "cheepest") a speech recogniser wrote some other way than the
/// vocabulary has it ("disel", "die sell", "dizzle", "unleded", "pertol"). Heard as a fuel FuelBoard has no prices for, the answer
/// said "FuelBoard doesn't have prices for disel. It has ... diesel" (conversation walkthrough).
///
/// An unknown word (or two, "die sell") is taken for a fuel word when it is one letter off it, or
/// when its consonants, as said, are diesel's or petrol's ("d-s-l": disel, deasil, dizzle). The recogniser corrects them before matching, so every phrase and every answer to a
/// question hears them ("Which fuel?" "disel").
enum MisheardFuel {
    /// The fuel word `said` (one or two lower-case words) sounds like, as the vocabulary writes
    /// it ("diesel"), or nil.
    static func word(for said: String) -> String? {
        let heard = said.split(separator: " ").joined()
        guard heard.count >= 4, heard.count <= 12, heard.allSatisfy(\.isLetter) else { return nil }
        return known.first { sounds(heard, like: $0) }?.word
    }

    /// `words` with each misheard fuel word (one word, or two heard apart: "die sell") written as
    /// the vocabulary has it; a word the grammar knows (`known`) is never one.
    static func correcting(_ words: [String], known: Set<String>) -> [String] {
        var corrected: [String] = []
        corrected.reserveCapacity(words.count)
        var index = 0
        while index < words.count {
            let word = words[index]
            if !known.contains(word) {
                if let fuel = Self.word(for: word) {
                    corrected.append(fuel)
                    index += 1
                    continue
                }
                if index + 1 < words.count, !known.contains(words[index + 1]),
                   let fuel = Self.word(for: word + " " + words[index + 1]) {
                    corrected.append(fuel)
                    index += 2
                    continue
                }
            }
            corrected.append(word)
            index += 1
        }
        return corrected
    }

    /// The words a misheard one is compared with: fuels, and the search words that carry an ask
    /// ("cheepest" was not understood, QA); premium, unleaded and the search words only by their
    /// letters (premium's and unleaded's consonants are also "prime"'s and "unload"'s).
    private static let known: [(word: String, byConsonants: Bool)] = [
        ("diesel", true), ("petrol", true), ("unleaded", false), ("premium", false),
        ("cheapest", false), ("nearest", false), ("closest", false),
    ]

    private static func sounds(_ heard: String, like known: (word: String, byConsonants: Bool)) -> Bool {
        let a = Array(heard.utf8), b = Array(known.word.utf8)
        guard abs(a.count - b.count) <= 2, a.first == b.first else { return false }
        // One letter off (or two swapped: "pertol") only: two let real words through ("premier",
        // "unloaded", "unleashed").
        if editDistance(a, b) <= 1 { return true }
        return known.byConsonants && consonants(a) == consonants(b)
    }

    /// The consonants as said: vowels (and y) dropped, z heard as s, a doubled letter once.
    static func consonants(_ letters: [UInt8]) -> [UInt8] {
        var kept: [UInt8] = []
        for letter in letters where !"aeiouy".utf8.contains(letter) {
            let sound = letter == UInt8(ascii: "z") ? UInt8(ascii: "s") : letter
            if kept.last != sound { kept.append(sound) }
        }
        return kept
    }

    /// Edit distance with insertions, deletions, substitutions and swaps of two neighbouring
    /// letters, each one edit (optimal string alignment).
    static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var beforePrevious = Array(0...b.count)
        var previous = beforePrevious
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
