@testable import FuelboardCLI
import Messages
import Testing

/// `fuelboard loadtest`'s query points: uniform over the whole UK (Northern Ireland, Shetland and
/// the Scilly Isles too: a box around Great Britain's mainland left them out), or around the
/// loaded stations; the same seed gives the same points.
struct LoadPlanPointsTests {
    @Test func uniformPoints_coverTheWholeUK_andNowhereElse() {
        let points = LoadPlan.points(.uniform, stations: [], count: 20_000, seed: 7)
        #expect(points.count == 20_000)
        #expect(points.allSatisfy { UKArea.includesUser(at: $0) })
        let northernIreland = points.filter { (54.0...55.3).contains($0.lat) && (-8.2 ... -5.5).contains($0.lng) }
        let northOfTheMainland = points.filter { $0.lat > 59.0 }
        let southOfTheMainland = points.filter { $0.lat < 50.0 }
        #expect(northernIreland.count > 100 && northOfTheMainland.count > 100 && southOfTheMainland.count > 50,
                "NI \(northernIreland.count), north of 59° \(northOfTheMainland.count), south of 50° \(southOfTheMainland.count)")
    }

    @Test func theSameSeed_givesTheSamePoints() {
        let stations = [Coordinate(lat: 51.5, lng: -0.12), Coordinate(lat: 54.6, lng: -5.93)]
        for kind in [LoadPlan.Points.uniform, .stations] {
            let first = LoadPlan.points(kind, stations: stations, count: 500, seed: 42)
            #expect(first == LoadPlan.points(kind, stations: stations, count: 500, seed: 42), "\(kind)")
            #expect(first != LoadPlan.points(kind, stations: stations, count: 500, seed: 43), "\(kind)")
        }
    }

    @Test func stationPoints_lieAroundTheStations() {
        let stations = [Coordinate(lat: 51.5, lng: -0.12), Coordinate(lat: 54.6, lng: -5.93)]
        let points = LoadPlan.points(.stations, stations: stations, count: 2000, seed: 3)
        #expect(points.allSatisfy { point in
            stations.contains { abs($0.lat - point.lat) <= 0.03 && abs($0.lng - point.lng) <= 0.045 }
        })
        #expect(Set(points.map { $0.lat > 53 }).count == 2, "both stations are drawn around")
    }
}
