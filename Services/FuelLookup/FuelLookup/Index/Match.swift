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
