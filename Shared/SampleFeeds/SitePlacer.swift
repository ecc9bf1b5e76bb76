/// What kind of place a site is at.
enum SiteKind: Sendable {
    case town, rural, motorway
}

/// Where one site is.
struct Placement: Sendable {
    var latitude: Double
    var longitude: Double
    /// The town that gives the site its postcode area and county (nearest town for motorway sites).
    var townIndex: Int
    var kind: SiteKind
    /// The motorway's name, for motorway sites.
    var motorway: String?
}

/// Places sites on plausible land-ish coordinates: around towns along their main roads and in
/// a population-sized cloud, in the countryside near towns, or along motorways.
struct SitePlacer: Sendable {
    let world: SampleWorld

    /// Share of town sites put along a main road rather than in the general cloud.
    private let roadShare = 0.6

    func place(_ kind: SiteKind, random: inout SeededRandom) -> Placement {
        switch kind {
        case .town: placeInTown(random: &random)
        case .rural: placeInCountry(random: &random)
        case .motorway: placeOnMotorway(random: &random)
        }
    }

    private func placeInTown(random: inout SeededRandom) -> Placement {
        let index = world.townTable.pick(using: &random)
        let town = world.towns[index]
        let spread = town.spreadKilometres
        var east: Double, north: Double
        if !town.edges.isIsland && random.chance(roadShare) {
            let road = random.pick(world.roads[index])
            let along = spread * (0.05 + 1.15 * random.unit() * random.unit().squareRoot())
            let across = random.bell() * 0.06
            east = road.x * along - road.y * across
            north = road.y * along + road.x * across
        } else {
            east = random.bell() * spread * 0.45
            north = random.bell() * spread * 0.45
        }
        return placement(near: index, east: east, north: north, kind: .town)
    }

    private func placeInCountry(random: inout SeededRandom) -> Placement {
        let index = world.ruralTable.pick(using: &random)
        let distance = world.towns[index].spreadKilometres + random.uniform(3, 18)
        let heading = random.direction()
        return placement(near: index, east: heading.x * distance, north: heading.y * distance, kind: .rural)
    }

    private func placeOnMotorway(random: inout SeededRandom) -> Placement {
        let segment = world.segments[world.segmentTable.pick(using: &random)]
        let fraction = random.unit()
        let latitude = segment.start.latitude + (segment.end.latitude - segment.start.latitude) * fraction
        let longitude = segment.start.longitude + (segment.end.longitude - segment.start.longitude) * fraction
        let moved = LocalGeometry.offset(latitude: latitude, longitude: longitude,
                                         eastKm: random.bell() * 0.04, northKm: random.bell() * 0.04)
        let clamped = Self.clampedToBounds(moved.latitude, moved.longitude)
        let townIndex = world.nearestTown(latitude: clamped.latitude, longitude: clamped.longitude)
        return Placement(latitude: clamped.latitude, longitude: clamped.longitude, townIndex: townIndex,
                         kind: .motorway, motorway: segment.motorway)
    }

    private func placement(near index: Int, east: Double, north: Double, kind: SiteKind) -> Placement {
        let town = world.towns[index]
        let landward = town.edges.landward(x: east, y: north)
        let moved = LocalGeometry.offset(latitude: town.latitude, longitude: town.longitude,
                                         eastKm: landward.x, northKm: landward.y)
        let clamped = Self.clampedToBounds(moved.latitude, moved.longitude)
        return Placement(latitude: clamped.latitude, longitude: clamped.longitude, townIndex: index,
                         kind: kind, motorway: nil)
    }

    /// Keeps a point a little inside the UK box.
    static func clampedToBounds(_ latitude: Double, _ longitude: Double) -> (latitude: Double, longitude: Double) {
        let margin = 0.05
        return (min(max(latitude, UKBounds.latitude.lowerBound + margin), UKBounds.latitude.upperBound - margin),
                min(max(longitude, UKBounds.longitude.lowerBound + margin), UKBounds.longitude.upperBound - margin))
    }
}
