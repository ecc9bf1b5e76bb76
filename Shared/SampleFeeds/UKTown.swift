import Messages
/// The four nations, for addresses, place names and regional price differences.
public enum UKNation: String, Sendable, CaseIterable {
    case england = "England"
    case scotland = "Scotland"
    case wales = "Wales"
    case northernIreland = "Northern Ireland"
}

/// The box every generated coordinate stays in (except deliberate quirks): lat 49.8...61, lng -8.7...1.9.
public enum UKBounds {
    public static let latitude = UKArea.latitudes
    public static let longitude = UKArea.longitudes

    public static func contains(latitude: Double, longitude: Double) -> Bool {
        Self.latitude.contains(latitude) && Self.longitude.contains(longitude)
    }
}

/// A UK town or city: approximate centre and population, written from general knowledge.
public struct UKTown: Sendable, Hashable {
    public let name: String
    /// County or council area, for addresses.
    public let county: String
    public let nation: UKNation
    public let latitude: Double
    public let longitude: Double
    public let population: Int
    /// Postcode areas (outward-code letters) used around the town, e.g. `["YO"]`; when there are six,
    /// they are in compass order N, NW, W, SW, SE, E and sites take the one on their side of the centre.
    public let postcodeAreas: [String]
    /// Postcode district numbers used around the town.
    public let districts: ClosedRange<Int>
    /// Sides where the town meets sea or a land border: generated points never go that way.
    let edges: TownEdges

    init(_ name: String, _ county: String, _ nation: UKNation, _ latitude: Double, _ longitude: Double,
         _ population: Int, _ areas: String, _ districts: ClosedRange<Int>, _ edges: String = "") {
        self.name = name
        self.county = county
        self.nation = nation
        self.latitude = latitude
        self.longitude = longitude
        self.population = population
        self.postcodeAreas = areas.split(separator: " ").map(String.init)
        self.districts = districts
        self.edges = TownEdges(edges)
    }

    /// How far stations spread from the centre, growing with the square root of population (km).
    public var spreadKilometres: Double {
        edges.isIsland ? 1.5 : 1.2 + 0.85 * (Double(population) / 10_000).squareRoot()
    }
}

/// Which sides of a town are sea or a border (`N`, `S`, `E`, `W`; `I` for a small island).
struct TownEdges: Sendable, Hashable {
    var north = false, south = false, east = false, west = false, isIsland = false

    init(_ text: String) {
        for letter in text {
            switch letter {
            case "N": north = true
            case "S": south = true
            case "E": east = true
            case "W": west = true
            case "I": isIsland = true
            default: break
            }
        }
    }

    /// Turns an offset (x east, y north, any unit) away from the blocked sides.
    func landward(x: Double, y: Double) -> (x: Double, y: Double) {
        var x = x, y = y
        if (east && x > 0) || (west && x < 0) { x = -x }
        if (north && y > 0) || (south && y < 0) { y = -y }
        return (x, y)
    }
}

/// Small-distance geometry without the platform maths library (so results match on every machine).
enum LocalGeometry {
    static let kilometresPerDegreeLatitude = 111.32

    /// Cosine of an angle in degrees (even Taylor series; error < 1e-9 for |angle| <= 90).
    static func cosine(degrees: Double) -> Double {
        let radians = degrees * (Double.pi / 180)
        let square = radians * radians
        var term = 1.0, sum = 1.0
        for step in 1...12 {
            let n = Double(2 * step)
            term *= -square / ((n - 1) * n)
            sum += term
        }
        return sum
    }

    /// Moves a point by an offset in kilometres (x east, y north).
    static func offset(latitude: Double, longitude: Double, eastKm: Double, northKm: Double)
        -> (latitude: Double, longitude: Double) {
        let latitudeDegrees = northKm / kilometresPerDegreeLatitude
        let longitudeDegrees = eastKm / (kilometresPerDegreeLatitude * cosine(degrees: latitude))
        return (latitude + latitudeDegrees, longitude + longitudeDegrees)
    }

    /// Squared distance in km² (equirectangular; good enough for "which town is nearest").
    static func squaredKilometres(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
        let north = (a.0 - b.0) * kilometresPerDegreeLatitude
        let east = (a.1 - b.1) * kilometresPerDegreeLatitude * cosine(degrees: (a.0 + b.0) / 2)
        return north * north + east * east
    }
}

/// The town table: England, Wales, Scotland and Northern Ireland.
public enum UKTowns {
    public static let all: [UKTown] = england + wales + scotland + northernIreland

    /// The first town with this name (case-insensitive), if any.
    public static func named(_ name: String) -> UKTown? {
        let wanted = name.lowercased()
        return all.first { $0.name.lowercased() == wanted }
    }
}
