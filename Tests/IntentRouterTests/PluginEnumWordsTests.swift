import Foundation
@testable import IntentRouter
import Messages
import Testing

/// What an enum parameter's words do (a plug-in developer's QA pass): a value that is a filler
/// word reaches the intent's phrases, and a word may name only one value.
struct PluginEnumWordsTests {
    private static func registry() throws -> PluginRegistry {
        PluginRegistry(appName: "FuelBoard", builtIns: try PhraseMatcher(phrases: [], slots: []))
    }

    private static func intent(_ values: [PluginValue], phrase: String = "[ask] {app} [to] book it for {when}")
        -> PluginIntent
    {
        PluginIntent(name: "Book", parameters: [PluginParameter(name: "when", type: .enum, values: values)],
                     phrases: [phrase])
    }

    private static func register(_ registry: PluginRegistry, _ intent: PluginIntent) throws {
        _ = try registry.register(PluginRegister(service: "bookings", instance: "i", intents: [intent], heartbeatMs: 1000),
                                  routingID: Data([1]), now: .now)
    }

    /// "today" is a filler the router drops from what users say: the phrase took "tomorrow" and
    /// never "today", though registration accepted both.
    @Test(arguments: [("Ask FuelBoard to book it for today", "today"), ("Ask FuelBoard to book it for tomorrow", "tomorrow"),
                      ("Ask FuelBoard to book it for right now", "right now"),
                      ("Ask FuelBoard please book it for today", "today")])
    func aValueThatIsAFiller_reachesThePhrase(utterance: String, value: String) throws {
        let registry = try Self.registry()
        try Self.register(registry, Self.intent([PluginValue("today"), PluginValue("tomorrow"),
                                                 PluginValue("right now")]))
        let heard = UtteranceNormalizer().normalize(utterance)
        let (grammar, match) = try #require(registry.recognize(registry.content(of: heard)), "\(utterance)")
        #expect(grammar.parameters(from: match)["when"] == .string(value))
    }

    /// Without such a value registered, fillers are dropped as before.
    @Test func withoutFillerValues_theUtterancesContentIsMatched() throws {
        let registry = try Self.registry()
        try Self.register(registry, Self.intent([PluginValue("tomorrow")]))
        let heard = UtteranceNormalizer().normalize("Ask FuelBoard please book it for tomorrow")
        #expect(registry.content(of: heard) == heard.content)
        #expect(registry.recognize(registry.content(of: heard)) != nil)
    }

    /// "blue" a synonym of red and a value of its own: "paint it blue" reached the plug-in as red.
    @Test(arguments: [[PluginValue("red", synonyms: ["blue"]), PluginValue("blue")],
                      [PluginValue("red", synonyms: ["crimson"]), PluginValue("maroon", synonyms: ["Crimson"])]])
    func aWordNamingTwoValues_isRefused(values: [PluginValue]) {
        #expect {
            _ = try PluginIntentGrammar(Self.intent(values), service: "paint", appName: "FuelBoard")
        } throws: { error in
            let refusal = error as? PluginRefusal
            return refusal?.code == "bad_request" && refusal?.reason.contains("a word may name one value") == true
        }
    }

    @Test func aSynonymRepeatingItsOwnValue_isTaken() throws {
        _ = try PluginIntentGrammar(Self.intent([PluginValue("red", synonyms: ["Red", "scarlet"])]),
                                    service: "paint", appName: "FuelBoard")
    }
}
