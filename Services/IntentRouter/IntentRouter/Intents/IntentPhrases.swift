/// The phrases that start a conversation. Every one names the app (`{app}`), as App Shortcuts
/// phrases must; the grammar refuses to compile otherwise. Utterances arrive without fillers
/// ("please", "what is", "can you"), so no phrase spells those out.
public enum IntentPhrases {
    /// Expansion rules shared by the phrases.
    public static let rules: [String: String] = [
        // "Ask FuelBoard to ...", "FuelBoard, ...", "Use FuelBoard and ..."
        "ask": "[(ask|tell|using|use|with|on|open|hey)] {app} [(to|and)]",
        // "... with FuelBoard", "... FuelBoard"
        "tail": "[(with|on|using|in|from|via|by|ask)] {app}",
        "find": """
            ((find|get|show|tell|give|locate) [me] | search for | look for | look up | where is | wheres \
            | where (can|do|should|could) i (get|buy|find) | where i can (get|buy|find) | i (need|want) \
            | (check|compare) | which is | (who|which [(garage|station|one|place)]) (has|sells|does|is selling) \
            | (whos|who has|which [(garage|station|one|place)] has) got)
            """,
        "cheapest": """
            (cheapest [[(price|prices)] (for|on|of)] | cheap | cheaper | lowest price[s] (for|on|of) | lowest priced \
            | least expensive | best price[s] (for|on|of) | best priced | best value | cheapest place (for|to get|to buy) \
            | price[s] (of|for) | (cost|costs) of | (nearest|closest) [and] (cheapest|cheap) | cheapest [and] (nearest|closest))
            """,
        // "filling station", "one", "place": no fuel named, so the resolve stage asks which.
        "fuel": """
            [({fuel} [fuel] | fuel | (filling|service|gas) (station|stations))] \
            [(station|stations|garage|garages|forecourt|pump|prices|price|one|place)]
            """,
        "howMuch": "how much (is|are|does|do|for) [(a|per) (litre|liter) of]",
        "fuelPrices": "{fuel} [fuel] (price|prices)",
        "near": """
            (near me | nearby | near by | near here | near to me | around here | around me | close to me | close by \
            | closest to me | in my area | near my location | in the area | round here | local | locally \
            | where i am | near where i am)
            """,
        // "... within 10 miles (of me)": this search's own radius.
        "searchWithin": "(within|in|inside) [a] [radius of] {miles} [{radiusUnit}] [(radius|of (me|here))]",
        // Where: near me, within a radius of its own, both or neither.
        "place": "[(<near> [<searchWithin>] | <searchWithin> [<near>])]",
        "target": "[the] <cheapest> <fuel> <place>",
        // "the nearest diesel", and as the answers say it, "the nearest station with diesel".
        "nearestTarget": """
            [the] (nearest|closest) (<fuel> | <stationWord> (with|selling|that (sells|has)) {fuel} [fuel]) \
            (<place> | to (me|here))
            """,
        "stationWord": "(station|garage|one|place|petrol station|filling station|forecourt)",
        // What a driver looking for somewhere to fill up calls it.
        "stations": """
            (station|stations|garage|garages|filling station|filling stations|service station|service stations \
            |forecourt|forecourts|place to (get|buy) [some] (fuel|{pricedFuel}))
            """,
        // Low on fuel: the nearest will do.
        "lowOnFuel": """
            ([(im|i am|were|we are|ive|i have|weve|we have)] [(nearly|almost|about to run|running|run|getting|very|really|so)] (out of|low on) \
            [some] (fuel|gas|{pricedFuel} [fuel]) \
            | [(my|the)] [low] (fuel|{pricedFuel}) [warning] (light|lights) [(is [on] | on | (has|s) (come|gone) on | came on | just came on)] \
            | i need fuel (urgently|fast) | [(im|i am)] [running] on (empty|fumes))
            """,
        "route": "[the] (directions | direction | a route | route | the way | navigation | a map) to",
        "routeVerb": "((get|give|show|send|find) [me] | i (want|need))",
        "go": "((take|navigate|drive|guide|direct|route|bring|lead) [me] to | how (do|can) i get to | go to)",
        "radiusWord": "[(my|the)] [search] (radius|distance|range|area)",
        "radiusValue": "{miles} [{radiusUnit}]",
        "within": """
            [(only|just)] (search | look | find [(stations|fuel)] | search for (stations|fuel) \
            | look for (stations|fuel) | show stations) within
            """,
        "setVerb": "(set|change|make|update|put|adjust|increase|decrease|reduce|extend|expand|switch)",
        "resetVerb": "(reset|clear|restore)",
        "toDefault": "[to [the] default]",
        "unitWord": "[(my|the)] [distance] (unit|units)",
        "useUnit": """
            (use | switch to | change to | go to | speak in | talk in | measure in | work in \
            | (switch|change) [distances] to | (give|show) [me] distances in | use distances in)
            """,
        "locationWord": """
            (my|the) [(saved|stored|last known|last|current)] (location|position|whereabouts|address|location data)
            """,
        "forgetVerb": "(forget|delete|erase|remove|clear|wipe|discard|reset)",
        "keepVerb": "(remembering|storing|saving|keeping|tracking)",
        // "what can you do" arrives as "what do" ("can you" is a filler).
        "helpAsk": """
            (help [me] | for help | i need [some] help | what [do] [(you|it)] do | what (can|do|should) i (ask|say) \
            | how does (it|this) work | how do i use (it|you))
            """,
    ]

    static let cheapest = Intent.cheapestFuel.rawValue
    static let directions = Intent.directionsToCheapestFuel.rawValue
    static let nearest = Intent.nearestFuel.rawValue
    static let nearestDirections = Intent.directionsToNearestFuel.rawValue
    static let radius = Intent.setSearchRadius.rawValue
    static let unit = Intent.setDistanceUnit.rawValue
    static let forget = Intent.forgetMyLocation.rawValue
    static let help = Intent.help.rawValue
    static let settings = Intent.mySettings.rawValue
    static let clearRadius = ["miles": "clear"]
    static let clearUnit = ["unit": "clear"]

    public static let phrases: [Phrase] = [
        Phrase(cheapest, "<ask> [<find>] [for] <target>"),
        Phrase(cheapest, "[<find>] <target> <tail>"),
        Phrase(cheapest, "<ask> [<find>] [for] [the] <fuelPrices> [<near>]"),
        Phrase(cheapest, "<ask> [<find>] [for] [the] (best|lowest|cheapest) <fuelPrices> [<place>]"),
        Phrase(cheapest, "[<find>] [the] <fuelPrices> [<near>] <tail>"),
        Phrase(cheapest, "<ask> [<find>] [me] where <target> is"),
        Phrase(cheapest, "<ask> <howMuch> <fuel> [(cost|costs)] <place>"),
        Phrase(cheapest, "<howMuch> <fuel> [(cost|costs)] <place> <tail>"),
        // A fuel named alone ("Ask FuelBoard diesel", "I need petrol"): only a fuel it knows, so
        // "Ask FuelBoard hello there" is still not understood rather than an unpriced fuel.
        Phrase(cheapest, "<ask> [(i (need|want) [to (get|buy)] | we need [to (get|buy)] | find [me] | look for | search for)] [for] [some] {fuel} [fuel] <place>",
               allowsWildcards: false),
        Phrase(cheapest, "<ask> where (should|can|do) i fill up [with {fuel}] [<near>]", allowsWildcards: false),
        // "Where can I get fuel", "I need fuel": which fuel is asked.
        Phrase(cheapest, "<ask> (where (can|do|should|could) i (get|buy|find) | i need [to get] | we need [to get]) [some] fuel [<place>]"),
        // "Where can I get diesel": a fuel it knows, bought near here.
        Phrase(cheapest, "<ask> where (can|do|should|could) i (get|buy|find) [some] {pricedFuel} [fuel] [<place>]",
               allowsWildcards: false),

        Phrase(directions, "<ask> [(<routeVerb> | for | can i (get|have))] <route> <target>"),
        Phrase(directions, "[<routeVerb>] <route> <target> <tail>"),
        Phrase(directions, "<ask> <go> <target>"),
        Phrase(directions, "<go> <target> <tail>"),

        // Only fuels it knows (or knows it has no prices for): "the nearest pub" is not a fuel.
        Phrase(nearest, "<ask> [<find>] [for] <nearestTarget>", allowsWildcards: false),
        Phrase(nearest, "[<find>] <nearestTarget> <tail>", allowsWildcards: false),
        // The price at the nearest: "how much is the nearest diesel", "diesel at the nearest garage".
        Phrase(nearest, "<ask> <howMuch> [the] (nearest|closest) {fuel} [fuel] [(cost|costs)]", allowsWildcards: false),
        Phrase(nearest, "<ask> how far [away] is <nearestTarget>", allowsWildcards: false),
        // "Is there a petrol station nearby", "petrol stations near me": a fuel FuelBoard prices
        // (an EV charging station or an LPG one is left to plug-ins); "find me a garage near me":
        // none said, so it asks which, only with "near me" ("I need a garage" may be a breakdown).
        Phrase(nearest, """
            <ask> [(is there | are there | find [me] | (show|give) me | i need | look for | search for | get me \
            | wheres | where is | where are)] [(a|an|any|some|the)] {pricedFuel} <stations> [<place>]
            """, allowsWildcards: false),
        Phrase(nearest, """
            <ask> [(is there | are there | find [me] | (show|give) me | look for | search for | get me \
            | wheres | where is | where are)] [(a|an|any|some|the)] <stations> <near> [<searchWithin>]
            """, allowsWildcards: false),
        Phrase(nearest, """
            <ask> [(wheres | where is | find [me])] [the] (nearest|closest) (place|station|garage) to (get|buy) [some] \
            {pricedFuel} [fuel] [<place>]
            """, allowsWildcards: false),
        Phrase(nearest, "<ask> <lowOnFuel> [<place>]", allowsWildcards: false),
        // "Take me to a petrol station", "get me to a garage": the nearest, with directions.
        Phrase(nearestDirections, "<ask> (<go> | get me to) (a|an|any) [{pricedFuel}] <stations> [<place>]",
               allowsWildcards: false),
        Phrase(nearest, "<ask> [<find>] [for] [(<howMuch> | [the] <cheapest>)] {fuel} [fuel] [(cost|costs)] at the (nearest|closest) <stationWord>",
               allowsWildcards: false),
        Phrase(nearestDirections, "<ask> [(<routeVerb> | for | can i (get|have))] <route> <nearestTarget>",
               allowsWildcards: false),
        Phrase(nearestDirections, "[<routeVerb>] <route> <nearestTarget> <tail>", allowsWildcards: false),
        Phrase(nearestDirections, "<ask> <go> <nearestTarget>", allowsWildcards: false),
        Phrase(nearestDirections, "<go> <nearestTarget> <tail>", allowsWildcards: false),

        Phrase(radius, "<ask> <setVerb> <radiusWord> to <radiusValue>"),
        Phrase(radius, "<setVerb> <radiusWord> to <radiusValue> <tail>"),
        Phrase(radius, "<ask> <within> <radiusValue>"),
        Phrase(radius, "<within> <radiusValue> <tail>"),
        Phrase(radius, "<ask> (use|set) a <radiusValue> [search] radius"),
        Phrase(radius, "<ask> <setVerb> <radiusWord>"),
        Phrase(radius, "<setVerb> <radiusWord> <tail>"),
        Phrase(radius, "<ask> <resetVerb> <radiusWord> <toDefault>", fixed: clearRadius),
        Phrase(radius, "<resetVerb> <radiusWord> <toDefault> <tail>", fixed: clearRadius),
        Phrase(radius, "<ask> <setVerb> <radiusWord> (back <toDefault> | to [the] default)", fixed: clearRadius),
        Phrase(radius, "<ask> use the default [search] (radius|distance)", fixed: clearRadius),

        Phrase(unit, "<ask> <useUnit> {unit} [(instead|for distances|from now on)]"),
        Phrase(unit, "<ask> <setVerb> <unitWord> to {unit}"),
        Phrase(unit, "(use|switch to|change to) {unit} [(instead|for distances)] <tail>"),
        Phrase(unit, "<setVerb> <unitWord> to {unit} <tail>"),
        Phrase(unit, "<ask> <setVerb> <unitWord>"),
        Phrase(unit, "<ask> <resetVerb> <unitWord> <toDefault>", fixed: clearUnit),
        Phrase(unit, "<resetVerb> <unitWord> <toDefault> <tail>", fixed: clearUnit),
        Phrase(unit, "<ask> <setVerb> <unitWord> back <toDefault>", fixed: clearUnit),
        Phrase(unit, "<ask> use the default [distance] (unit|units)", fixed: clearUnit),

        Phrase(forget, "<ask> <forgetVerb> <locationWord>"),
        Phrase(forget, "<forgetVerb> <locationWord> <tail>"),
        Phrase(forget, "<ask> (forget|delete|erase) (me|where i am|everything about me|[all] my data)"),
        Phrase(forget, "<ask> (stop|dont keep|do not keep) <keepVerb> <locationWord>"),

        // "what is" / "what's" are fillers: "Ask FuelBoard what's my search radius" arrives without them.
        Phrase(settings, "<ask> [(tell me | say | read [me] | what are)] (my | [my] current) ([search] (radius|distance|range) | settings) [(setting|settings|now)]"),
        Phrase(settings, "<ask> (what|which) (unit|units|distance units) [(are you using|do you use|am i using|is it|are they)]"),
        Phrase(settings, "<ask> how far (do|will) you (search|look)"),

        Phrase(help, "<ask> [<helpAsk>]"),
        Phrase(help, "(what can {app} do|how do i use {app}|what can i (ask|say) {app})"),
        Phrase(help, "(help|what do) <tail>"),
    ]

    /// The compiled grammar for an app name.
    public static func matcher(appName: String) throws(TemplateError) -> PhraseMatcher {
        try PhraseMatcher(phrases: phrases, slots: Vocabulary.slotLists(appName: appName), rules: rules,
                          requiredSlots: ["app"])
    }
}
