import Messages

/// A value an outcome sentence can use as `{name}`, and the request field it is made from.
public enum Fact: String, CaseIterable, Sendable {
    /// The station's speakable name ("Tesco Selby").
    case station
    case postcode
    /// The spoken fuel name ("diesel").
    case fuel
    /// The capitalised fuel name for display ("Diesel").
    case fuelTitle
    /// "£1.399"
    case price
    /// "2.3 miles", "1 mile", "3.7 km"
    case distance
    /// "as of 6:30 AM"
    case freshness
    /// The search radius, "5 miles", "1 mile", "8 km".
    case radius
    /// The distance unit's name, "miles" or "kilometres".
    case unit
    /// A word quoted back to the user ("hydrogen").
    case word
    /// The smallest radius the user may choose, in their unit, as a bare number: "1", "2" (km).
    case minRadius = "min"
    /// The largest radius the user may choose, in their unit: "50 miles", "80 km".
    case maxRadius = "max"
    /// Where the search was made from: "you", or for a stored location over an hour old
    /// "where you were 3 hours ago" (read after "near" or "of").
    case place = "where"

    /// The `RenderRequest` field this fact needs.
    public var requestField: String {
        switch self {
        case .station, .postcode: "station"
        case .fuel, .fuelTitle: "fuel"
        case .price: "pricePence"
        case .distance: "distanceMiles"
        case .freshness: "updated"
        case .radius: "radiusMiles"
        case .unit, .minRadius, .maxRadius: "unit"
        case .word: "word"
        case .place: "locationAt"
        }
    }
}

extension DialogOutcome {
    /// The facts this outcome's sentences may use. Each is guaranteed: its field is required
    /// (or, for `radius` after a reset, the unit and `where`, defaulted), so a template never lacks a value.
    public var facts: Set<Fact> {
        switch self {
        case .found, .directions, .nearestFound, .nearestDirections:
            [.station, .postcode, .fuel, .fuelTitle, .price, .distance, .freshness, .place]
        case .nothingInRange: [.fuel, .fuelTitle, .radius, .place]
        case .unsupportedFuel: [.word]
        case .radiusSet, .radiusCleared: [.radius]
        case .unitSet, .unitCleared: [.unit]
        case .settingsRead: [.radius, .unit]
        case .askRadius, .radiusOutOfRange: [.minRadius, .maxRadius]
        case .noPrices, .noLocation, .askFuel, .askUnit, .confirmForget,
             .forgotten, .notForgotten, .cancelled, .help, .pricesUnavailable, .locationUnavailable, .failure,
             .notUnderstood, .outsideCoverage, .settingsUnavailable, .sessionExpired, .welcome, .appNotNamed, .namedPlace, .settingsUnreadable,
             .settingsUnconfirmed, .forgetUnconfirmed:
            []
        }
    }

    /// `facts` in a fixed order (by name), worked out once per outcome.
    var factsInOrder: [Fact] { Self.factsInOrder[index] }

    /// Indexed by `index`.
    private static let factsInOrder: [[Fact]] = {
        var table = [[Fact]](repeating: [], count: allCases.count)
        for outcome in allCases { table[outcome.index] = outcome.facts.sorted { $0.rawValue < $1.rawValue } }
        return table
    }()

    /// Request fields without which the outcome cannot be rendered (a missing one is `bad_request`).
    public var requiredFields: [String] {
        switch self {
        case .found, .directions, .nearestFound, .nearestDirections:
            ["station", "fuel", "pricePence", "distanceMiles", "updated"]
        case .nothingInRange: ["fuel", "radiusMiles"]
        case .unsupportedFuel: ["word"]
        case .radiusSet: ["radiusMiles"]
        case .unitSet: ["unit"]
        case .settingsRead: ["radiusMiles", "unit"]
        default: []
        }
    }
}
