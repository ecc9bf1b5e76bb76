/// Answers inside an open session: they need no app name ("diesel", "yes", "10 miles"), and
/// what may follow a station search's answer ("take me there", "what about petrol").
public enum FollowUpPhrases {
    /// Labels of follow-up answers.
    public enum Label: String, Sendable, CaseIterable {
        case cancel, yes, no, fuel, radius, unit
        /// Directions to the station just found.
        case directions
        /// The same search for the nearest (`search` = `nearest`) or the cheapest instead.
        case search
        /// The answer said again ("say that again": a driver in road noise).
        case `repeat`
        /// After nothing in range: the same search twice as far ("further?", "search further").
        case further
    }

    public static let rules: [String: String] = [
        "lead": """
            [(i (want|need|would like|will have|ll have) | id like | get me | make it | find me | for | just \
            | the | use | its [a] | it is [a] | it takes | my car (takes|uses|runs on|is [a]) | i (drive|have) a)]
            """,
        "near": "(near me|nearby|around here|close by)",
        "cancel": """
            (cancel [(that|it)] | never mind | nevermind | stop | forget it | quit | exit | abort | nothing \
            | no thanks | no thank you | leave it)
            """,
        "yes": """
            (yes | yeah | yep | yup | aye | sure | ok | okay | confirm | confirmed | correct | definitely \
            | absolutely | of course | go ahead | go on [then] | do it | please do | affirmative | yes please)
            """,
        "yesMore": """
            (do it | go ahead | go on | please | thats (fine|right) | i am sure | im sure | forget (it|my location|me) \
            | delete it | thanks | sure)
            """,
        "no": """
            (no | nope | nah | negative | dont | do not | keep it | dont do (it|that) | no dont \
            | dont forget [(it|me|my location)] | not now | no keep it | but no)
            """,
        "radiusLead": "[(<lead> | set it to | change it to | to | within | about | around | search within)]",
        "backTo": "[(use | reset [it] to | back to | set it to | go back to | just use)]",
        "unitLead": "[(<lead> | switch to | change to | in | set it to)]",
        "instead": """
            (what about | how about | and | and what about | and how about | what if i want | try | now \
            | same for | and for | what about for | how about for \
            | [(no | sorry | oh)] [(i meant | i mean | i said)] [actually] | actually | i meant | make (that|it))
            """,
        "insteadEnd": "[(instead | then | too | as well | please)]",
        "nod": "[(ok | okay | great | lovely | perfect | cool | brilliant | nice | yes | yeah | right | sounds good)]",
        "takeMe": """
            (take me there | take me to it | take me | directions [(there | to it | to that one)] \
            | get [me] directions | give me directions | show me the way [there] | how do i get there \
            | navigate [me] [(there | to it)] | lets go [there] | go there | route me there \
            | (open | show) [it] in maps | (show | put) it on [the] map | show me on [the] map)
            """,
        "which": "[<instead>] [(which | where) is] [the]",
        "sayAgain": """
            (repeat [(that|it|the answer|yourself)] | say (that|it) again | [(sorry|pardon)] (pardon | come again) \
            | what did you say | [(sorry|pardon)] i (didnt|did not) (catch|hear) (that|it|you) | one more time \
            | again please | (can|could) you repeat [(that|it)] | say again | pardon me | sorry | what)
            """,
    ]

    static let clearRadius = ["miles": "clear"]
    static let clearUnit = ["unit": "clear"]

    public static let phrases: [Phrase] = [
        Phrase(Label.cancel.rawValue, "[{app}] <cancel> [{app}]"),
        Phrase(Label.yes.rawValue, "<yes> [<yesMore>]"),
        Phrase(Label.no.rawValue, "<no>"),
        // "the unleaded one", "diesel I think"
        Phrase(Label.fuel.rawValue,
               "<lead> [the] [cheapest] {fuel} [fuel] [(one|car)] [<near>] [(within|in) {miles} [{radiusUnit}]] [(then|please|instead|i (think|guess))]",
               allowsWildcards: false),
        Phrase(Label.radius.rawValue, "<radiusLead> [a] {miles} [{radiusUnit}] [(radius|search radius)]"),
        Phrase(Label.radius.rawValue, "<backTo> [the] default [(radius|one|distance)]", fixed: clearRadius),
        Phrase(Label.radius.rawValue, "reset [it]", fixed: clearRadius),
        Phrase(Label.unit.rawValue, "<unitLead> {unit} [(please|instead)]"),
        Phrase(Label.unit.rawValue, "<backTo> [the] default [(unit|units|one)]", fixed: clearUnit),
        Phrase(Label.unit.rawValue, "reset [it]", fixed: clearUnit),
        // After a station search's answer.
        Phrase(Label.fuel.rawValue,
               "<instead> [the] [cheapest] {fuel} [fuel] [one] [(within|in) {miles} [{radiusUnit}]] <insteadEnd>",
               allowsWildcards: false),
        Phrase(Label.radius.rawValue, "[<instead>] [(within | in)] [a] {miles} [{radiusUnit}] <insteadEnd>"),
        Phrase(Label.directions.rawValue, "<nod> [(can you | could you | please)] <takeMe> [please] [thanks]"),
        Phrase(Label.search.rawValue, "<which> (nearest | closest) [(one | station | garage)] <insteadEnd>",
               fixed: ["search": "nearest"]),
        Phrase(Label.search.rawValue, "<which> cheapest [(one | station | garage)] <insteadEnd>",
               fixed: ["search": "cheapest"]),
        Phrase(Label.search.rawValue, "[(is there | anything | something | one | any)] [(anything|one)] (closer|nearer)",
               fixed: ["search": "nearest"]),
        Phrase(Label.search.rawValue, "[(is there | anything | something | one | any)] [(anything|one)] cheaper",
               fixed: ["search": "cheapest"]),
        Phrase(Label.repeat.rawValue, "[(sorry|pardon)] <sayAgain> [please]"),
        Phrase(Label.further.rawValue, """
            [<instead>] [(can you | could you | please)] [(try | search | look)] (further | farther) [(away | afield | out)] \
            <insteadEnd>
            """),
        Phrase(Label.further.rawValue, """
            [<instead>] [(can you | could you | please)] ((widen | expand | extend) [the] (search | radius) \
            | [(try | search)] [(a|the)] (bigger | wider | larger) (area | radius | search)) <insteadEnd>
            """),
    ]

    public static func matcher(appName: String) throws(TemplateError) -> PhraseMatcher {
        try PhraseMatcher(phrases: phrases, slots: Vocabulary.slotLists(appName: appName), rules: rules)
    }
}
