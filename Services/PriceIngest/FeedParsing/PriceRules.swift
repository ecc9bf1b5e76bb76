import Messages

/// Price rules: what counts as a real price, and what looks odd across a feed.
enum PriceRules {
    /// The lowest price kept, in tenths of a penny (80.0p).
    static let lowestTenths: Int32 = 800
    /// Prices from this (300.0p) up are sentinels.
    static let sentinelFromTenths: Int32 = 3_000

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
}
