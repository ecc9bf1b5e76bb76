/// Every placeholder name a template may use, numbered: a compiled template names its values by
/// number and a render keeps them in `SlotValues`, with no names compared or hashed.
enum Slot: Int, CaseIterable {
    // The facts of outcome sentences and snippet cards (`Fact`).
    case station, postcode, fuel, fuelTitle, price, distance, freshness, radius, unit, word, minRadius, maxRadius
    case place
    // The parts of phrases (`TemplateKeys.all` lists which text may use which).
    case pounds, number, time, date, hour12, hour24, minute, ampm, day, month, year, hours

    /// The placeholder's name, as written in templates (`{fuelTitle}`).
    var name: String { Self.names[rawValue] }

    init?(name: String) {
        guard let index = Self.names.firstIndex(of: name) else { return nil }
        self.init(rawValue: index)
    }

    init(_ fact: Fact) {
        switch fact {
        case .station: self = .station
        case .postcode: self = .postcode
        case .fuel: self = .fuel
        case .fuelTitle: self = .fuelTitle
        case .price: self = .price
        case .distance: self = .distance
        case .freshness: self = .freshness
        case .radius: self = .radius
        case .unit: self = .unit
        case .word: self = .word
        case .minRadius: self = .minRadius
        case .maxRadius: self = .maxRadius
        case .place: self = .place
        }
    }

    private static let names: [String] = [
        "station", "postcode", "fuel", "fuelTitle", "price", "distance", "freshness", "radius", "unit", "word",
        "min", "max", "where",
        "pounds", "number", "time", "date", "hour12", "hour24", "minute", "ampm", "day", "month", "year", "hours",
    ]
}

/// The values of one render's placeholders: where each one's text is in the `TextScratch`
/// (a lane per slot; a slot never given a value has a negative start).
struct SlotValues {
    private var starts = SIMD32<Int>(repeating: -1)
    private var ends = SIMD32<Int>(repeating: 0)

    subscript(slot: Slot) -> Range<Int>? {
        get { self[lane: slot.rawValue] }
        set {
            starts[slot.rawValue] = newValue?.lowerBound ?? -1
            ends[slot.rawValue] = newValue?.upperBound ?? 0
        }
    }

    /// The value of the slot numbered `lane`.
    subscript(lane lane: Int) -> Range<Int>? {
        let start = starts[lane]
        return start < 0 ? nil : start..<ends[lane]
    }
}
