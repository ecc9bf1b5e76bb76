import IntentRouter
import Testing

struct UtteranceNormalizerTests {
    let normalizer = UtteranceNormalizer()

    @Test func words_whenCaseAndPunctuationDiffer_areTheSame() {
        #expect(UtteranceNormalizer.words("ASK FuelBoard, for the CHEAPEST diesel?!") ==
                ["ask", "fuelboard", "for", "the", "cheapest", "diesel"])
    }

    @Test func words_whenApostropheIsCurlyOrStraight_dropIt() {
        #expect(UtteranceNormalizer.words("what\u{2019}s") == ["whats"])
        #expect(UtteranceNormalizer.words("what's") == ["whats"])
        #expect(UtteranceNormalizer.words("doesn\u{2018}t") == ["doesnt"])
    }

    @Test func words_whenSpacesRepeat_collapse() {
        #expect(UtteranceNormalizer.words("  cheapest \t  diesel \n ") == ["cheapest", "diesel"])
    }

    @Test func words_whenNumberTouchesUnit_splitThem() {
        #expect(UtteranceNormalizer.words("10km") == ["10", "km"])
        #expect(UtteranceNormalizer.words("7.5 miles.") == ["7.5", "miles"])
        #expect(UtteranceNormalizer.words("E10") == ["e10"])
    }

    @Test func words_whenDigitsAreGroupedInThousands_keepOneNumber() {
        #expect(UtteranceNormalizer.words("within 10,000 miles") == ["within", "10000", "miles"])
        #expect(UtteranceNormalizer.words("1,234,567") == ["1234567"])
        #expect(UtteranceNormalizer.words("2,000.") == ["2000"])
    }

    /// A minus sign before a number is said ("-5 miles" was 5 miles); a hyphen between words or
    /// numbers stays a break.
    @Test func words_whenAMinusSignPrecedesANumber_sayMinus() {
        #expect(UtteranceNormalizer.words("within -5 miles") == ["within", "minus", "5", "miles"])
        #expect(UtteranceNormalizer.words("\u{2212}2.5km") == ["minus", "2.5", "km"])
        #expect(UtteranceNormalizer.words("5-10 miles") == ["5", "10", "miles"])
        #expect(UtteranceNormalizer.words("the M4-5 junction") == ["the", "m4", "5", "junction"])
        #expect(UtteranceNormalizer.words("self-service - 24 hours") == ["self", "service", "24", "hours"])
    }

    @Test func words_whenACommaIsNotAThousandsSeparator_breakThere() {
        #expect(UtteranceNormalizer.words("1,5 miles") == ["1", "5", "miles"])
        #expect(UtteranceNormalizer.words("1,5000") == ["1", "5000"])
        #expect(UtteranceNormalizer.words("diesel, 300 yards") == ["diesel", "300", "yards"])
        #expect(UtteranceNormalizer.words("5,10,15") == ["5", "10", "15"])
    }

    @Test func words_whenHyphenated_splitIntoWords() {
        #expect(UtteranceNormalizer.words("super-unleaded twenty-five") == ["super", "unleaded", "twenty", "five"])
    }

    @Test func words_whenAccented_foldAccents() {
        #expect(UtteranceNormalizer.words("Café") == ["cafe"])
    }

    @Test func normalize_whenFillersPresent_dropsThemFromContentOnly() {
        let utterance = normalizer.normalize("Hey, please, what is the cheapest diesel, um, ok?")
        #expect(utterance.content == ["the", "cheapest", "diesel"])
        #expect(utterance.words.first == "hey")
        #expect(utterance.words.contains("ok"))
    }

    @Test func normalize_whenWhatsContracted_dropsItLikeWhatIs() {
        let contracted = normalizer.normalize("what's the cheapest")
        #expect(contracted.content == normalizer.normalize("what is the cheapest").content)
    }

    @Test func normalize_whenVeryLong_isCut() {
        let text = Array(repeating: "diesel petrol", count: 250).joined(separator: " ")  // no stutter to collapse
        #expect(normalizer.normalize(text).words.count == UtteranceNormalizer.maxWords)
    }
}
