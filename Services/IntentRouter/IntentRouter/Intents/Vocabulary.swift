import Messages

/// The slot lists: fuels with their synonyms, distance units, numbers and the app name.
public enum Vocabulary {
    /// Fuel words by CMA code (`FuelCode.words`), and fuels FuelBoard has no prices for (value nil).
    public static let fuels: [(value: String?, phrases: [String])] =
        FuelCode.words.map { (Optional($0.code.rawValue), $0.words + (misheard[$0.code] ?? [])) }
        + [(nil, FuelCode.unpricedWords)]

    /// Fuel words as speech recognisers write them (plurals, misspellings) and as people say
    /// them ("regular" for unleaded): "diesels" was heard as a fuel FuelBoard has no prices for. The assistant's own; `fuelboard lookup --fuel` keeps
    /// to the real words.
    static let misheard: [FuelCode: [String]] = [
        .e10: ["unleadeds", "petrols", "patrol", "unleaded fuel", "regular", "normal", "standard", "gasoline"],
        .e5: ["premiums", "super unleadeds"],
        .b7: ["diesels", "deisel", "deisels", "deezel", "diesal", "diesil", "diesle", "deasel", "diesel fuel"],
        .sdv: ["super diesels", "premium diesels", "super deisel"],
    ]

    /// Units a user may hear distances in.
    public static let units: [(value: String?, phrases: [String])] = [
        (DistanceUnit.km.rawValue, ["kilometres", "kilometers", "kilometre", "kilometer", "km", "kms", "k m",
                                    "metric", "metric units"]),
        (DistanceUnit.miles.rawValue, ["miles", "mile", "mi", "imperial", "imperial units"]),
    ]

    /// The unit after a radius ("10 km").
    public static let radiusUnits: [(value: String?, phrases: [String])] = [
        (DistanceUnit.km.rawValue, ["kilometres", "kilometers", "kilometre", "kilometer", "km", "kms", "k"]),
        (DistanceUnit.miles.rawValue, ["miles", "mile", "mi"]),
    ]

    public static let kilometresPerMile = DistanceUnit.kilometresPerMile

    /// Every slot list of the grammar, with the app's spoken forms.
    public static func slotLists(appName: String) -> [SlotList] {
        [
            .synonyms("app", [("app", AppName.spokenForms(appName))]),
            .synonyms("fuel", fuels, wildcardWords: 2),
            // Only the fuels FuelBoard prices: phrases that would otherwise take a charging or an
            // LPG station from a plug-in that serves it.
            .synonyms("pricedFuel", fuels.filter { $0.value != nil }),
            .synonyms("unit", units),
            .synonyms("radiusUnit", radiusUnits),
            SlotList(name: "miles", kind: .number),
        ]
    }
}
