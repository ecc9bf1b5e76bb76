import Messages

/// The slot lists: fuels with their synonyms, distance units, numbers and the app name.
public enum Vocabulary {
    /// Fuel words by CMA code, and fuels FuelBoard has no prices for (value nil).
    public static let fuels: [(value: String?, phrases: [String])] = [
        (FuelCode.e10.rawValue, ["unleaded", "petrol", "E10", "E 10", "E ten", "regular unleaded", "standard unleaded",
                                 "normal unleaded", "unleaded petrol", "regular petrol", "normal petrol",
                                 "standard petrol", "ordinary petrol"]),
        (FuelCode.e5.rawValue, ["premium", "super unleaded", "E5", "E 5", "E five", "premium unleaded",
                                "premium petrol", "super petrol", "super plus unleaded", "super"]),
        (FuelCode.b7.rawValue, ["diesel", "B7", "B 7", "B seven", "regular diesel", "standard diesel",
                                "normal diesel", "ordinary diesel"]),
        (FuelCode.sdv.rawValue, ["super diesel", "premium diesel", "SDV", "S D V", "ultimate diesel",
                                 "v power diesel", "performance diesel"]),
        (nil, ["hydrogen", "LPG", "L P G", "autogas", "auto gas", "electric", "electricity", "electric charging",
               "EV charging", "EV", "charging", "charger", "chargers", "charging point", "charging points",
               "CNG", "red diesel", "kerosene", "heating oil", "adblue", "ad blue", "E85", "HVO", "biodiesel",
               "jet fuel", "avgas", "gas", "propane", "paraffin"]),
    ]

    /// Units a user may hear distances in.
    public static let units: [(value: String?, phrases: [String])] = [
        (DistanceUnit.km.rawValue, ["kilometres", "kilometers", "kilometre", "kilometer", "km", "kms", "k m",
                                    "metric", "metric units"]),
        (DistanceUnit.miles.rawValue, ["miles", "mile", "mi", "imperial", "imperial units"]),
    ]

    /// The unit after a radius ("10 km").
    public static let radiusUnits: [(value: String?, phrases: [String])] = [
        (DistanceUnit.km.rawValue, ["kilometres", "kilometers", "kilometre", "kilometer", "km", "kms"]),
        (DistanceUnit.miles.rawValue, ["miles", "mile", "mi"]),
    ]

    public static let kilometresPerMile = 1.609344

    /// Every slot list of the grammar, with the app's spoken forms.
    public static func slotLists(appName: String) -> [SlotList] {
        [
            .synonyms("app", [("app", AppName.spokenForms(appName))]),
            .synonyms("fuel", fuels, wildcardWords: 2),
            .synonyms("unit", units),
            .synonyms("radiusUnit", radiusUnits),
            SlotList(name: "miles", kind: .number),
        ]
    }
}
