import FuelLookup
import Messages

/// Runs many queries through the index and the brute force and reports the first disagreement.
struct AgreementCheck {
    /// Radii that exercise tiny, town-sized and region-sized searches.
    static let radii: [Double] = [0.05, 0.5, 2, 5, 5, 10, 30]

    let points: [Coordinate]
    private(set) var answered = 0
    private(set) var disagreement: String?

    init(points: [Coordinate]) { self.points = points }

    /// Asks `index` and `reference` the same question for every point and a rotating radius.
    mutating func run(_ index: (Coordinate, Double) -> [Match], _ reference: (Coordinate, Double) -> [Match]) {
        for (number, point) in points.enumerated() {
            let radius = Self.radii[number % Self.radii.count]
            let expected = reference(point, radius)
            let actual = index(point, radius)
            if !expected.isEmpty { answered += 1 }
            if actual != expected && disagreement == nil {
                disagreement = "query \(number) at \(point.lat),\(point.lng) r=\(radius): index "
                    + Self.describe(actual) + " brute force " + Self.describe(expected)
            }
        }
    }

    static func describe(_ matches: [Match]) -> String {
        "[" + matches.map { "\($0.station.id) \($0.price?.description ?? "-") \($0.distanceMiles)" }
            .joined(separator: ", ") + "]"
    }
}
