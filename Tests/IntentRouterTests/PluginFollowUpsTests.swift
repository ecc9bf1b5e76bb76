@testable import IntentRouter
import Messages
import Testing

/// How a user's next utterance in a plug-in conversation is read: a number said with a word before
/// it and a unit after it, and a disambiguation option picked by a run of words only its title has.
struct PluginFollowUpsTests {
    private static let normalizer = UtteranceNormalizer()

    private static func grammar() throws -> PluginIntentGrammar {
        let intent = PluginIntent(name: "Timer", parameters: [PluginParameter(name: "minutes", type: .number),
                                                               PluginParameter(name: "fuel", type: .enum, values: [
                                                                   PluginValue("B7", synonyms: ["diesel"]),
                                                               ])],
                                  phrases: ["[ask] {app} to remind me in {minutes} minutes"])
        return try PluginIntentGrammar(intent, service: "timers", appName: "FuelBoard")
    }

    private static func number(_ utterance: String) throws -> JSONValue? {
        PluginFollowUps.value(for: "minutes", of: try grammar(), normalizer.normalize(utterance))
    }

    @Test(arguments: [("20", 20.0), ("in 20", 20), ("in 20 minutes", 20), ("about twenty five mins please", 25),
                      ("make it 15", 15), ("within 5 miles", 5), ("7.5", 7.5), ("say 30", 30)])
    func aNumber_saidWithALeadWordOrAUnit_isTaken(utterance: String, value: Double) throws {
        #expect(try Self.number(utterance) == .number(value), "\(utterance)")
    }

    /// The guide says a unit is not checked: one the router does not know is taken as well.
    @Test(arguments: [("3 washes", 3.0), ("about 3 car washes please", 3), ("twenty five litres", 25),
                      ("two and a half washes", 2.5)])
    func aNumber_withAUnitTheRouterDoesNotKnow_isTaken(utterance: String, value: Double) throws {
        #expect(try Self.number(utterance) == .number(value), "\(utterance)")
    }

    /// Unknown words after a number are dropped only when they are no number: "twenty five" is not 20.
    @Test(arguments: ["3 five", "three car washes or so", "20 twenty", "washes"])
    func unknownWordsThatAreANumberOrTooMany_giveNone(utterance: String) throws {
        #expect(try Self.number(utterance) == nil, "\(utterance)")
    }

    /// A plug-in's numbers are 0 or more: a negative one is no answer ("-5" was read as 5, QA).
    @Test(arguments: ["-5", "minus 5", "negative five", "\u{2212}5 washes"])
    func aNegativeNumber_isNoAnswer(utterance: String) throws {
        #expect(try Self.number(utterance) == nil, "\(utterance)")
    }

    @Test(arguments: ["in the morning", "twenty past three minutes ago", "minutes", "20 20", "under the bridge"])
    func wordsThatAreNotANumberAnswer_giveNone(utterance: String) throws {
        #expect(try Self.number(utterance) == nil, "\(utterance)")
    }

    @Test func anEnumAnswer_isNotReadWithTheNumberWords() throws {
        let grammar = try Self.grammar()
        #expect(PluginFollowUps.value(for: "fuel", of: grammar, Self.normalizer.normalize("in diesel minutes")) == nil)
        #expect(PluginFollowUps.value(for: "fuel", of: grammar, Self.normalizer.normalize("diesel")) == .string("B7"))
    }

    private static let streets = [PluginOption(value: "a", title: "Green Lane, York"),
                                  PluginOption(value: "b", title: "Station Road, York"),
                                  PluginOption(value: "c", title: "Green Street, Leeds")]

    private static func pick(_ utterance: String, among options: [PluginOption] = streets) -> String? {
        PluginFollowUps.choice(among: options, normalizer.normalize(utterance))?.value
    }

    @Test(arguments: [("Green Lane", "a"), ("the one on Green Lane", "a"), ("Station Road", "b"), ("lane", "a"),
                      ("Green Street", "c"), ("Leeds", "c"), ("the second one", "b"), ("Green Lane, York", "a")])
    func anOption_isPickedByAnyRunOfWordsOnlyItsTitleHas(utterance: String, value: String) {
        #expect(Self.pick(utterance) == value, "\(utterance)")
    }

    @Test(arguments: ["Green", "York", "Green York", "Lane Green"])
    func wordsTwoTitlesShare_orWordsOutOfOrder_pickNone(utterance: String) {
        #expect(Self.pick(utterance) == nil, "\(utterance)")
    }

    @Test func runsOfALongTitle_areLimitedToItsWords() {
        let long = (1...20).map { "word\($0)" }
        let runs = PluginFollowUps.uniqueRuns(of: long, notIn: [["word1"]])
        #expect(runs.count == 19 && !runs.contains("word1"))
        // The whole title is a phrase of its own: runs stop one word short of it.
        #expect(PluginFollowUps.uniqueRuns(of: ["green", "lane", "york"], notIn: [["green", "street", "york"]])
            == ["lane", "green lane", "lane york"])
    }
}

/// An option's value is the service's id, not something users say: picks go by title, synonym,
/// words only one title has, and position; an answer that fits two options picks none.
extension PluginFollowUpsTests {
    private static let bays = [PluginOption(value: "2", title: "North Bay"),
                               PluginOption(value: "1", title: "South Bay")]

    @Test(arguments: [("1", "2"), ("2", "1"), ("the first one", "2"), ("the second", "1"), ("number 2", "1"),
                      ("the last one", "1"), ("north", "2"), ("South Bay", "1")])
    func aNumber_isAPosition_neverAValue(utterance: String, value: String) {
        #expect(Self.pick(utterance, among: Self.bays) == value, "\(utterance)")
    }

    private static let places = [PluginOption(value: "green", title: "Green Lane, York"),
                                 PluginOption(value: "station", title: "Station Road, York"),
                                 PluginOption(value: "park", title: "Green Park, Leeds", synonyms: ["the park"])]

    @Test(arguments: [("green", nil), ("Green Lane", "green"), ("station", "station"), ("park", "park"),
                      ("the park", "park"), ("Leeds", "park"), ("York", nil)])
    func aValue_isNotAWordUsersSay(utterance: String, value: String?) {
        #expect(Self.pick(utterance, among: Self.places) == value, "\(utterance)")
    }

    @Test func anAnswerThatFitsTwoOptions_picksNone() {
        let options = [PluginOption(value: "a", title: "Shell Selby", synonyms: ["the shell"]),
                       PluginOption(value: "b", title: "Esso Selby", synonyms: ["the shell"])]
        #expect(Self.pick("the shell", among: options) == nil)
        // A position and another option's title: "the second" is option 2's place and option 1's name.
        let ordinals = [PluginOption(value: "a", title: "Second Avenue"),
                        PluginOption(value: "b", title: "First Street")]
        #expect(Self.pick("second", among: ordinals) == nil)
        #expect(Self.pick("Second Avenue", among: ordinals) == "a")
    }

    @Test func aBareNumber_reachesEveryOptionOfTwenty() {
        let many = (1...20).map { PluginOption(value: "id\($0)", title: "Station \(Self.names[$0 - 1])") }
        #expect(Self.pick("17", among: many) == "id17")
        #expect(Self.pick("the third one", among: many) == "id3")
    }

    private static let names = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india",
                                "juliet", "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo",
                                "sierra", "tango"]
}
