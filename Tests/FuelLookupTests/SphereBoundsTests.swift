@testable import FuelLookup
import Messages
import Testing

/// The invariant the exact search rests on: a point's stored (Float) squared chord never exceeds
/// the key of its haversine distance.
struct SphereBoundsTests {
    private static func storedChordSquared(_ query: Coordinate, _ point: Coordinate) -> Double {
        let q = UnitVector(query), p = UnitVector(point)
        let stored = PointRecord(x: Float(p.x), y: Float(p.y), z: Float(p.z), price: 0, station: 0)
        return stored.chordSquared(x: q.x, y: q.y, z: q.z)
    }

    @Test(arguments: [1e-5, 0.01, 1, 90])
    func key_neverFallsBelowTheStoredChord(spreadDegrees: Double) {
        var rng = SeededGenerator(seed: 71)
        var violations = 0
        for _ in 0 ..< 50_000 {
            let query = Coordinate(lat: Double.random(in: -89 ... 89, using: &rng),
                                   lng: Double.random(in: -179 ... 179, using: &rng))
            let point = Coordinate(lat: max(-90, min(90, query.lat + rng.gaussian() * spreadDegrees)),
                                   lng: query.lng + rng.gaussian() * spreadDegrees)
            let distance = query.distanceMiles(to: point)
            if Self.storedChordSquared(query, point) > SphereBounds.key(miles: distance) { violations += 1 }
        }
        #expect(violations == 0)
    }

    @Test func key_holdsForNearAntipodalPoints() {
        var rng = SeededGenerator(seed: 72)
        var violations = 0
        for _ in 0 ..< 20_000 {
            let query = Coordinate(lat: Double.random(in: -89 ... 89, using: &rng),
                                   lng: Double.random(in: -179 ... 179, using: &rng))
            let antipode = Coordinate(lat: -query.lat + rng.gaussian() * 0.01,
                                      lng: (query.lng > 0 ? query.lng - 180 : query.lng + 180) + rng.gaussian() * 0.01)
            let distance = query.distanceMiles(to: antipode)
            if Self.storedChordSquared(query, antipode) > SphereBounds.key(miles: distance) { violations += 1 }
        }
        #expect(violations == 0)
    }
}
