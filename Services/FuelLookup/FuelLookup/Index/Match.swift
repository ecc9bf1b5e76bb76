import Messages

/// One station a lookup returns.
public struct Match: Sendable, Hashable {
    public let station: Station
    /// The price of the fuel asked for; nil for a nearest lookup without a fuel.
    public let price: Price?
    /// Great-circle distance from the query point (haversine, `Coordinate.distanceMiles`).
    public let distanceMiles: Double
    /// Whether that price is far from its retailer's others (`PriceOutlier`).
    public let priceOutlier: PriceOutlier?

    public init(station: Station, price: Price?, distanceMiles: Double, priceOutlier: PriceOutlier? = nil) {
        self.station = station
        self.price = price
        self.distanceMiles = distanceMiles
        self.priceOutlier = priceOutlier
    }
}

/// A match as the index found it: its station's rank (place in id order), price and distance,
/// without the `Station` itself, which the hot path only needs when its reply text is not
/// written yet (`PriceIndex.match(_:)` makes the full `Match`).
struct RankedMatch: Sendable {
    let rank: Int32
    let price: Price?
    let distanceMiles: Double
    let priceOutlier: PriceOutlier?
}
