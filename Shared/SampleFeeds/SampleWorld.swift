/// The fixed geography one generator works with: towns and their weights, each town's main roads,
/// nearby towns (for road names) and motorway segments. The seed only turns the roads; the rest is
/// computed once per process and shared.
struct SampleWorld: Sendable {
    private let geography: Geography
    /// Unit vectors (x east, y north) of each town's radial main roads.
    let roads: [[(x: Double, y: Double)]]

    var towns: [UKTown] { geography.towns }
    /// Picks a town for a town site: population^0.875 (big cities have fewer forecourts per head).
    var townTable: WeightedTable { geography.townTable }
    /// Picks a town a rural site lies near: population^0.5; never an island.
    var ruralTable: WeightedTable { geography.ruralTable }
    /// Indices of each town's nearest other towns, closest first.
    var neighbours: [[Int]] { geography.neighbours }
    var segments: [MotorwaySegment] { geography.segments }
    var segmentTable: WeightedTable { geography.segmentTable }

    init(seed: UInt64) {
        geography = Geography.shared
        var random = SeededRandom(seed: SplitMix64.derive(seed, stream: 0x726F_6164_7300))
        roads = geography.towns.map { town in
            let count = 3 + min(5, town.population / 150_000)
            return (0..<count).map { _ in random.direction() }
        }
    }

    /// The index of the town nearest to a point.
    func nearestTown(latitude: Double, longitude: Double) -> Int {
        var best = 0
        var bestDistance = Double.infinity
        for (index, town) in towns.enumerated() {
            let distance = LocalGeometry.squaredKilometres((latitude, longitude), (town.latitude, town.longitude))
            if distance < bestDistance {
                best = index
                bestDistance = distance
            }
        }
        return best
    }
}

/// The seed-independent part of the world.
private struct Geography: Sendable {
    static let shared = Geography(towns: UKTowns.all)

    let towns: [UKTown]
    let townTable: WeightedTable
    let ruralTable: WeightedTable
    let neighbours: [[Int]]
    let segments: [MotorwaySegment]
    let segmentTable: WeightedTable

    init(towns: [UKTown]) {
        self.towns = towns
        townTable = WeightedTable(towns.map { town in
            let root = Double(town.population).squareRoot()
            let fourth = root.squareRoot()
            return root * fourth * fourth.squareRoot()
        })
        ruralTable = WeightedTable(towns.map { $0.edges.isIsland ? 0 : Double($0.population).squareRoot() })
        neighbours = towns.indices.map { index in
            let here = (towns[index].latitude, towns[index].longitude)
            let others = towns.indices.filter { $0 != index }.map { other in
                (other, LocalGeometry.squaredKilometres(here, (towns[other].latitude, towns[other].longitude)))
            }
            return others.sorted { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }.prefix(6).map(\.0)
        }
        segments = MotorwaySegment.all
        segmentTable = WeightedTable(segments.map(\.lengthKilometres))
    }
}
