@testable import IntentRouter
import Messages
import Testing

/// A plug-in phrase no utterance can reach is refused at registration, naming why; such phrases
/// were accepted and never matched (a plug-in author's walkthrough found three).
struct PluginDeadPhraseTests {
    private static func grammar(_ phrase: String, parameters: [PluginParameter] = []) throws(PluginRefusal)
        -> PluginIntentGrammar
    {
        try PluginIntentGrammar(PluginIntent(name: "CarWash", parameters: parameters, phrases: [phrase]),
                                service: "car-wash", appName: "FuelBoard")
    }

    @Test(arguments: [("[ask] {app} is the car wash open today", "today"),
                      ("[ask] {app} please is the car wash open", "please"),
                      ("[ask] {app} how well does the jet wash work", "well"),
                      ("[ask] {app} what is the car wash price", "what is")])
    func aPhraseSpellingOutAFiller_isRefused_namingIt(phrase: String, filler: String) {
        #expect {
            _ = try Self.grammar(phrase)
        } throws: { error in
            let refusal = error as? PluginRefusal
            return refusal?.code == "bad_request" && refusal?.reason.contains("can never match") == true
                && refusal?.reason.contains("drops \"\(filler)\"") == true
        }
    }

    /// An alternative that says a filler can never be heard, though the phrase's other ways can:
    /// `(what is|how is) ...` was taken, and users asking "what is ..." were not understood.
    @Test(arguments: [("[ask] {app} (what is|how is) the car wash price", "\"what is\"", "what is"),
                      ("[ask] {app} is the car wash open (today|tomorrow)", "today", "today"),
                      ("[ask] {app} (tell me|(please|kindly) say) the car wash price", "please", "please")])
    func anAlternativeSpellingOutAFiller_isRefused_namingIt(phrase: String, alternative: String, filler: String) {
        #expect {
            _ = try Self.grammar(phrase)
        } throws: { error in
            let reason = (error as? PluginRefusal)?.reason ?? ""
            return reason.contains("has an alternative that can never match")
                && reason.contains("drops \"\(filler)\"") && reason.contains(alternative)
        }
    }

    /// "say bye bye" has no parameter: the reason is the word said twice (it named a free-text
    /// parameter the phrase does not have, QA).
    @Test(arguments: [("[ask] {app} say bye bye", "bye"), ("[ask] {app} zebra zebra crossing", "zebra")])
    func aPhraseSayingAWordTwice_isRefused_namingTheWord(phrase: String, word: String) {
        #expect {
            _ = try Self.grammar(phrase)
        } throws: { error in
            let reason = (error as? PluginRefusal)?.reason ?? ""
            return reason.contains("\"\(word) \(word)\": a word said twice in a row counts once")
                && !reason.contains("free-text")
        }
    }

    @Test func aPhraseEndingInFreeText_isRefused() {
        #expect {
            _ = try Self.grammar("[ask] {app} is the car wash open at {where}",
                                 parameters: [PluginParameter(name: "where", type: .string)])
        } throws: { error in
            (error as? PluginRefusal)?.reason.contains("free-text parameter must be followed") == true
        }
    }

    /// A parameter said twice on one path binds once, so the path never matched: the reason named
    /// free text followed by no word (of a number followed by one, QA).
    @Test(arguments: ["[ask] {app} clean {n} cars for {n} pounds", "[ask] {app} clean {n} [(cars|vans)] [for {n}]"])
    func aParameterSaidTwiceInOnePhrase_isRefused_namingIt(phrase: String) {
        #expect {
            _ = try Self.grammar(phrase, parameters: [PluginParameter(name: "n", type: .number)])
        } throws: { error in
            let reason = (error as? PluginRefusal)?.reason ?? ""
            return reason.contains("{n} appears twice") && !reason.contains("free-text")
        }
    }

    /// Each free-text parameter multiplies the ways an utterance can be read (it may take the
    /// phrase's own words): a phrase of nine made one ask 275 ms of the router's loop (hostile QA).
    @Test func aPhraseWithMoreThanThreeFreeTextParameters_isRefused_namingThem() {
        let parameters = (0..<4).map { PluginParameter(name: "p\($0)", type: .string) }
        #expect {
            _ = try Self.grammar("[ask] {app} {p0} x {p1} x {p2} x {p3} x go", parameters: parameters)
        } throws: { error in
            let reason = (error as? PluginRefusal)?.reason ?? ""
            return reason.contains("has 4 free-text parameters (p0, p1, p2, p3); a phrase may have 3 at most")
        }
        #expect(throws: Never.self) {
            _ = try Self.grammar("[ask] {app} {p0} x {p1} x {p2} x go", parameters: parameters)
        }
    }

    /// A phrase longer than the 40 words an utterance is read to can never match: said so (it was
    /// told of a stutter or a filler: hostile QA).
    @Test func aPhraseLongerThanAnUtteranceIsRead_isRefused_sayingSo() {
        let phrase = "[ask] {app} " + (1...40).map { "w\($0)" }.joined(separator: " ")
        #expect {
            _ = try Self.grammar(phrase)
        } throws: { error in
            let reason = (error as? PluginRefusal)?.reason ?? ""
            return reason.contains("it takes at least 41 words to say, and the router reads the first 40 words")
        }
    }

    /// In two alternatives a parameter is said once on each path: taken.
    @Test func aParameterInTwoAlternatives_isTaken() throws {
        let grammar = try Self.grammar("[ask] {app} (clean {n} cars|wash {n} vans)",
                                       parameters: [PluginParameter(name: "n", type: .number)])
        let match = grammar.matcher.match(UtteranceNormalizer().normalize("Ask FuelBoard wash 3 vans").content)
        #expect(match?.slots["n"]?.value == "3")
    }

    /// Free text takes what users say, the phrase's own words among them ("the", "wash", "open"):
    /// "at the big tesco" was not understood where the phrase itself says "the" (QA).
    @Test(arguments: [("when does the car wash at the big tesco open", "the big tesco"),
                      ("when does the car wash at wash world open", "wash world"),
                      ("when does the car wash at open road open", "open road"),
                      ("when does the car wash at tesco open", "tesco")])
    func freeText_takesThePhrasesOwnWords(said: String, site: String) throws {
        let grammar = try Self.grammar("[ask] {app} when does the car wash at {site} open",
                                       parameters: [PluginParameter(name: "site", type: .string)])
        let match = grammar.matcher.match(UtteranceNormalizer().normalize("Ask FuelBoard " + said).content)
        #expect(match?.slots["site"]?.text == site, "\(String(describing: match))")
    }

    @Test(arguments: ["[ask] {app} [please] is the car wash open", "[ask] {app} is the car wash open",
                      "[ask] {app} [(please|kindly)] is the car wash open", "[ask] {app} (how is|is) the car wash open",
                      "[ask] {app} is the car wash at {where} open"])
    func aReachablePhrase_isTaken(phrase: String) throws {
        let grammar = try Self.grammar(phrase, parameters: [PluginParameter(name: "where", type: .string)])
        #expect(grammar.matcher.match(UtteranceNormalizer().normalize("Ask FuelBoard is the car wash open").content)
            != nil || phrase.contains("{where}"))
    }
}
