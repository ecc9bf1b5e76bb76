import Messages

/// One station a lookup returns.
public struct Match: Sendable, Hashable {
    public let station: Station
    /// The price of the fuel asked for; nil for a nearest lookup without a fuel.
    public let price: Price?
    /// Great-circle distance from the query point (haversine, `Coordinate.distanceMiles`).
    public let distanceMiles: Double

    public init(station: Station, price: Price?, distanceMiles: Double) {
        self.station = station
        self.price = price
        self.distanceMiles = distanceMiles
    }
}

/// A match and its station's rank in the index that found it (what `ReplyTextCache` keys by).
struct RankedMatch: Sendable {
    let match: Match
    let rank: Int32
}
