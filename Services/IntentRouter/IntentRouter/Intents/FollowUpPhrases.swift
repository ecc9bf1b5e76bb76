/// Answers inside an open session: they need no app name ("diesel", "yes", "10 miles").
public enum FollowUpPhrases {
    /// Labels of follow-up answers.
    public enum Label: String, Sendable, CaseIterable {
        case cancel, yes, no, fuel, radius, unit
    }

    public static let rules: [String: String] = [
        "lead": """
            [(i (want|need|would like|will have|ll have) | id like | get me | make it | find me | for | just \
            | the | use | its | it is)]
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
    ]

    static let clearRadius = ["miles": "clear"]
    static let clearUnit = ["unit": "clear"]

    public static let phrases: [Phrase] = [
        Phrase(Label.cancel.rawValue, "[{app}] <cancel> [{app}]"),
        Phrase(Label.yes.rawValue, "<yes> [<yesMore>]"),
        Phrase(Label.no.rawValue, "<no>"),
        // "the unleaded one", "diesel I think"
        Phrase(Label.fuel.rawValue,
               "<lead> [the] [cheapest] {fuel} [fuel] [one] [<near>] [(within|in) {miles} [{radiusUnit}]] [i (think|guess)]",
               allowsWildcards: false),
        Phrase(Label.radius.rawValue, "<radiusLead> [a] {miles} [{radiusUnit}] [(radius|search radius)]"),
        Phrase(Label.radius.rawValue, "<backTo> [the] default [(radius|one|distance)]", fixed: clearRadius),
        Phrase(Label.radius.rawValue, "reset [it]", fixed: clearRadius),
        Phrase(Label.unit.rawValue, "<unitLead> {unit} [(please|instead)]"),
        Phrase(Label.unit.rawValue, "<backTo> [the] default [(unit|units|one)]", fixed: clearUnit),
        Phrase(Label.unit.rawValue, "reset [it]", fixed: clearUnit),
    ]

    public static func matcher(appName: String) throws(TemplateError) -> PhraseMatcher {
        try PhraseMatcher(phrases: phrases, slots: Vocabulary.slotLists(appName: appName), rules: rules)
    }
}
