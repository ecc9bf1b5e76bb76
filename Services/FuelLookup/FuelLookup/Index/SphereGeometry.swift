import Foundation
import Messages

/// A position as a 3-D unit vector: the straight-line (chord) distance between two of them grows
/// monotonically with their great-circle distance, so axis-aligned boxes give exact distance bounds.
struct UnitVector: Sendable {
    var x: Double
    var y: Double
    var z: Double

    init(_ coordinate: Coordinate) {
        let toRadians = Double.pi / 180
        let lat = coordinate.lat * toRadians
        let lng = coordinate.lng * toRadians
        let cosLat = cos(lat)
        x = cosLat * cos(lng)
        y = cosLat * sin(lng)
        z = sin(lat)
    }
}

/// Distance keys the search can compare without square roots.
///
/// The arc is never shorter than its chord (`2 asin(c / 2) >= c`), so a point at great-circle
/// distance `d` has chord `c <= d / R`. Tree points (and the boxes around them) are stored as
/// `Float`, at most ~5.2e-8 off the true unit vector (~2.1e-4 miles); `slackMiles` absorbs that and
/// all rounding, so for every point a box or stored point covers,
/// `storedChordSquared <= key(haversine distance)`, where `key(d) = ((d + slack) / R)^2`.
/// Boxes and unmeasured points are therefore keyed by their squared chord, measured points by
/// `key(d)`, and the order of keys never contradicts the order of true distances.
enum SphereBounds {
    static let slackMiles = 5e-4

    @inline(__always)
    static func key(miles: Double) -> Double {
        let chord = (miles + slackMiles) / Coordinate.earthRadiusMiles
        return chord * chord
    }
}
