import Messages

/// Price rules: what counts as a real price, and what looks odd across a feed.
enum PriceRules {
    /// The lowest price kept, in tenths of a penny (80.0p).
    static let lowestTenths: Int32 = 800
    /// Prices from this (300.0p) up are sentinels.
    static let sentinelFromTenths: Int32 = 3_000
    /// A price further than this (35.0p) from its fuel's feed median raises `price_outlier`.
    static let outlierTenths: Int32 = 350
    /// The median of a fuel is only used with at least this many prices.
    static let minimumForMedian = 3

    /// What a reported price value is worth.
    enum Verdict: Equatable {
        case price(Price)
        /// A number outside [80, 300) pence: a placeholder meaning "no price".
        case sentinel(Double)
        /// Null: absent, silently.
        case absent
        /// Not a number at all.
        case invalid
    }

    static func judge(_ value: LenientValue) -> Verdict {
        if value == .null { return .absent }
        guard let pence = value.number else { return .invalid }
        guard pence > 0, let price = Price(pence: pence),
              price.tenths >= lowestTenths, price.tenths < sentinelFromTenths else { return .sentinel(pence) }
        return .price(price)
    }

    /// The pairs that should not be inverted: (cheaper grade, dearer grade).
    static let orderedPairs: [(cheaper: FuelCode, dearer: FuelCode)] = [(.e10, .e5), (.b7, .sdv)]

    /// The median price of each fuel with at least `minimumForMedian` prices (lower middle for even counts).
    static func medians(of stations: [Station]) -> [FuelCode: Int32] {
        var byFuel: [FuelCode: [Int32]] = [:]
        for station in stations {
            for (fuel, price) in station.prices { byFuel[fuel, default: []].append(price.tenths) }
        }
        var medians: [FuelCode: Int32] = [:]
        for (fuel, values) in byFuel where values.count >= minimumForMedian {
            let sorted = values.sorted()
            medians[fuel] = sorted[(sorted.count - 1) / 2]
        }
        return medians
    }
}
