import Foundation

/// A WGS84 position in decimal degrees.
public struct Coordinate: Codable, Sendable, Hashable {
    public var lat: Double
    public var lng: Double

    public init(lat: Double, lng: Double) {
        self.lat = lat
        self.lng = lng
    }

    /// Mean Earth radius in statute miles.
    public static let earthRadiusMiles = 3958.7613

    /// Great-circle distance in miles (haversine).
    public func distanceMiles(to other: Coordinate) -> Double {
        let toRadians = Double.pi / 180
        let dLat = (other.lat - lat) * toRadians
        let dLng = (other.lng - lng) * toRadians
        let a = sin(dLat / 2) * sin(dLat / 2)
            + cos(lat * toRadians) * cos(other.lat * toRadians) * sin(dLng / 2) * sin(dLng / 2)
        return 2 * Coordinate.earthRadiusMiles * asin(min(1, a.squareRoot()))
    }

    /// True when both components are finite and inside WGS84 bounds.
    public var isOnEarth: Bool {
        lat.isFinite && lng.isFinite && abs(lat) <= 90 && abs(lng) <= 180
    }
}
