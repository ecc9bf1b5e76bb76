import Messages

/// Every key a locale file may hold, with the placeholders each may use.
///
/// A locale file is nested JSON; keys are the dotted paths to its strings
/// (`{"outcomes": {"found": {"dialog": "..."}}}` is `outcomes.found.dialog`).
/// The base locale (en-GB) must have every required key; other locales may leave any key out
/// and fall back to en-GB for it.
public enum TemplateKeys {
    /// A key and what it may contain.
    public struct Spec: Sendable {
        public let placeholders: Set<String>
        /// Must be present in the base locale.
        public let required: Bool
    }

    // Keys built from a case are built once (a render asks for a dozen of them).
    public static func dialog(_ outcome: DialogOutcome) -> String { dialogKeys[outcome] ?? "" }
    public static func value(_ outcome: DialogOutcome) -> String { valueKeys[outcome] ?? "" }

    static let snippetTitle = "snippet.title"
    static let snippetSubtitle = "snippet.subtitle"
    static let snippetFreshness = "snippet.freshness"
    static let staleNote = "freshness.stale"
    /// Said after a station's price that is an outlier in its retailer's feed (`PriceOutlier`).
    static let outlierLowNote = "outlier.low"
    /// The low note after the out-of-date note, which has already said "may be out of date"
    /// (optional: without it the low note is said).
    static let outlierLowAfterStaleNote = "outlier.lowAfterStale"
    static let outlierHighNote = "outlier.high"
    /// Said after "nothing in range" at the largest radius (optional: without it nothing is said).
    static let largestRadiusNote = "search.largestRadius"
    /// Said after a station answer that passed over a cheaper price from a lagging feed, with
    /// that price's station, price and freshness (optional).
    static let passedOverNote = "search.passedOver"
    /// Said after a search's answer made with the default radius and unit (`defaultSettings`).
    static let defaultSettingsNote = "settings.defaultsUsed"
    static let freshnessToday = "freshness.today"
    static let freshnessYesterday = "freshness.yesterday"
    static let freshnessOlder = "freshness.older"
    static let placeCurrent = "place.current"
    static let placeHourAgo = "place.hourAgo"
    static let placeHoursAgo = "place.hoursAgo"
    static let placeYesterday = "place.yesterday"
    static let placeEarlier = "place.earlier"
    static let time = "clock.time"
    /// Said instead of `time` at 0:00 and 12:00.
    static let midnight = "clock.midnight"
    static let noon = "clock.noon"
    static let amMarker = "clock.am"
    static let pmMarker = "clock.pm"
    static let date = "clock.date"
    static let dateWithYear = "clock.dateWithYear"
    static let decimalSeparator = "numbers.decimalSeparator"
    static let price = "units.price"

    static func month(_ number: Int) -> String {
        (1...12).contains(number) ? monthKeys[number - 1] : "clock.months.\(number)"
    }
    static func spokenFuel(_ fuel: FuelCode) -> String { spokenFuelKeys[fuel] ?? "" }
    static func fuelTitle(_ fuel: FuelCode) -> String { fuelTitleKeys[fuel] ?? "" }
    static func unitName(_ unit: DistanceUnit) -> String { unitNameKeys[unit] ?? "" }
    /// The distance phrase for exactly one unit ("1 mile").
    static func distanceOne(_ unit: DistanceUnit) -> String { distanceOneKeys[unit] ?? "" }
    /// The distance phrase for any other amount ("2.3 miles").
    static func distanceOther(_ unit: DistanceUnit) -> String { distanceOtherKeys[unit] ?? "" }
    /// The distance phrase below the smallest amount spoken ("less than 0.1 miles").
    static func distanceLessThan(_ unit: DistanceUnit) -> String { distanceLessThanKeys[unit] ?? "" }

    private static func keys<Case: Hashable & CaseIterable & RawRepresentable>(
        _ type: Case.Type, _ key: (String) -> String
    ) -> [Case: String] where Case.RawValue == String {
        Dictionary(uniqueKeysWithValues: Case.allCases.map { ($0, key($0.rawValue)) })
    }
    private static let dialogKeys = keys(DialogOutcome.self) { "outcomes.\($0).dialog" }
    private static let valueKeys = keys(DialogOutcome.self) { "outcomes.\($0).value" }
    private static let monthKeys = (1...12).map { "clock.months.\($0)" }
    private static let spokenFuelKeys = keys(FuelCode.self) { "fuels.\($0).spoken" }
    private static let fuelTitleKeys = keys(FuelCode.self) { "fuels.\($0).title" }
    private static let unitNameKeys = keys(DistanceUnit.self) { "units.\($0).name" }
    private static let distanceOneKeys = keys(DistanceUnit.self) { "units.\($0).one" }
    private static let distanceOtherKeys = keys(DistanceUnit.self) { "units.\($0).other" }
    private static let distanceLessThanKeys = keys(DistanceUnit.self) { "units.\($0).lessThan" }

    /// Every known key.
    public static let all: [String: Spec] = {
        var keys: [String: Spec] = [:]
        func add(_ key: String, _ placeholders: Set<String> = [], required: Bool = true) {
            keys[key] = Spec(placeholders: placeholders, required: required)
        }
        let stationFacts = Set(DialogOutcome.found.facts.map(\.rawValue))
        for outcome in DialogOutcome.allCases {
            let facts = Set(outcome.facts.map(\.rawValue))
            add(dialog(outcome), facts)
            add(value(outcome), facts, required: outcome.isStationAnswer)
        }
        add(snippetTitle, stationFacts)
        add(snippetSubtitle, stationFacts)
        add(snippetFreshness, stationFacts)
        add(staleNote)
        add(outlierLowNote)
        add(outlierLowAfterStaleNote, required: false)
        add(outlierHighNote)
        add(defaultSettingsNote)
        add(largestRadiusNote, required: false)
        add(passedOverNote, ["station", "price", "freshness"], required: false)
        add(freshnessToday, ["time"])
        add(freshnessYesterday, ["time"])
        add(freshnessOlder, ["date", "time"])
        add(placeCurrent)
        add(placeHourAgo)
        add(placeHoursAgo, ["hours"])
        add(placeYesterday)
        add(placeEarlier, ["date"])
        let clockParts: Set<String> = ["hour12", "hour24", "minute", "ampm"]
        add(time, clockParts)
        add(midnight, clockParts)
        add(noon, clockParts)
        add(amMarker)
        add(pmMarker)
        add(date, ["day", "month"])
        add(dateWithYear, ["day", "month", "year"])
        for number in 1...12 { add(month(number)) }
        add(decimalSeparator)
        add(price, ["pounds"])
        for fuel in FuelCode.allCases {
            add(spokenFuel(fuel))
            add(fuelTitle(fuel))
        }
        for unit in DistanceUnit.allCases {
            add(unitName(unit))
            add(distanceOne(unit), ["number"])
            add(distanceOther(unit), ["number"])
            add(distanceLessThan(unit), ["number"])
        }
        return keys
    }()
}
