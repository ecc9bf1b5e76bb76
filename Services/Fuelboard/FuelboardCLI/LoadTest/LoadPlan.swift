import Foundation
import Messages
import SampleFeeds
import ServiceKit

/// The requests a load test sends: pre-encoded frames, so the generator spends its CPU on
/// sending and timing, not on JSON.
struct LoadPlan {
    enum Target: String {
        case lookup, router
    }

    enum Points: String {
        /// Near the loaded stations (from price-ingest's snapshot).
        case stations
        /// Uniformly over the UK box.
        case uniform
    }

    let target: Target
    /// Request bodies (the envelope and id are written around them per request).
    let bodies: [[UInt8]]
    let typeName: String
    /// What each lookup body asks (same order as `bodies`), to check its reply; empty for the router.
    var queries: [LookupQuery] = []

    /// Uniform points' box: the UK's as the services know it, Northern Ireland, Shetland and the
    /// Scilly Isles included (a box around Great Britain's mainland left out some 25 of the real
    /// feeds' 4,478 stations); points outside the UK in it are drawn again (see `points`).
    static let latitudes = UKArea.latitudes
    static let longitudes = UKArea.longitudes

    static func make(target: Target, type: MessageType, points: [Coordinate], count: Int, seed: UInt64,
                     radius: Double, fuel: String, appName: String = AppNameSetting.defaultName) throws -> LoadPlan {
        var random = SeededRandom(seed: seed)
        let fuels = ["E10", "B7", "E5", "SDV"]
        let fuelWords = Self.fuelWords
        var bodies: [Data] = []
        var queries: [LookupQuery] = []
        bodies.reserveCapacity(count)
        for index in 0..<count {
            let point = points[random.below(points.count)]
            let body: Data
            switch target {
            case .lookup:
                let chosenFuel = fuel == "mixed" ? fuels[random.below(fuels.count)] : fuel
                body = try JSONCoding.encode(LookupRequest(fuel: chosenFuel, lat: point.lat, lng: point.lng,
                                                           radiusMiles: radius, limit: 1))
                queries.append(LookupQuery(fuel: chosenFuel, point: point, radiusMiles: radius, limit: 1))
            case .router:
                let word = fuelWords[random.below(fuelWords.count)]
                let phrasing = Self.askPhrasings[random.below(Self.askPhrasings.count)]
                let ask = AssistantAskRequest(user: Self.user(index % Self.users),
                                              utterance: phrasing.replacingOccurrences(of: "{fuel}", with: word)
                                                  .replacingOccurrences(of: AppNameSetting.defaultName, with: appName),
                                              location: point)
                body = try JSONCoding.encode(ask)
            }
            bodies.append(body)
        }
        return LoadPlan(target: target, bodies: bodies.map { Array($0) }, typeName: type.rawValue, queries: queries)
    }

    /// The users a router load test asks as (`load-0` ... `load-4999`); their locations are stored
    /// by the router, and `LoadUsers` forgets them after the run.
    static let users = 5000
    static func user(_ number: Int) -> String { "load-\(number)" }

    /// The numbers of the users requests `sequences` asked as (router plans), sorted.
    func users(of sequences: [Range<Int>]) -> [Int] {
        guard target == .router, !bodies.isEmpty else { return [] }
        let possible = min(Self.users, bodies.count)
        var seen = Set<Int>()
        for range in sequences {
            for sequence in range {
                seen.insert(sequence % bodies.count % Self.users)
                if seen.count == possible { return seen.sorted() }
            }
        }
        return seen.sorted()
    }

    /// Ways people ask for the cheapest fuel (each one of the router's sentence tests), so a load
    /// test matches a spread of phrasings, not one sentence.
    static let fuelWords = ["unleaded", "diesel", "premium", "super diesel", "petrol", "E10", "B7"]
    static let askPhrasings = [
        "Ask FuelBoard for the cheapest {fuel} near me",
        "Ask FuelBoard what's the cheapest {fuel} near me",
        "Find the cheapest {fuel} near me FuelBoard",
        "FuelBoard, where's the cheapest {fuel} nearby?",
        "Tell FuelBoard to find the cheapest {fuel} around here",
        "Use FuelBoard to find me the cheapest {fuel} near me",
        "Ask FuelBoard where can I get the cheapest {fuel}",
        "Ok FuelBoard, um, cheapest {fuel} close by",
    ]

    /// Query points: jittered around stations (within ~2 miles) or uniform over the UK, to six
    /// decimals (about 10 cm), the precision a phone's location arrives with.
    /// Points the assistant would answer "outside the UK" for (the Irish Sea edge of the box, a
    /// station's jitter across the Irish border) are drawn again, up to `redraws` times.
    static func points(_ kind: Points, stations: [Coordinate], count: Int, seed: UInt64) -> [Coordinate] {
        var random = SeededRandom(seed: seed &+ 1)
        func sixDecimals(_ degrees: Double) -> Double { (degrees * 1e6).rounded() / 1e6 }
        func covered(_ draw: () -> Coordinate) -> Coordinate {
            var point = draw()
            for _ in 0..<redraws where !UKArea.includesUser(at: point) { point = draw() }
            return point
        }
        if kind == .uniform || stations.isEmpty {
            return (0..<count).map { _ in
                covered {
                    Coordinate(lat: sixDecimals(random.uniform(latitudes.lowerBound, latitudes.upperBound)),
                               lng: sixDecimals(random.uniform(longitudes.lowerBound, longitudes.upperBound)))
                }
            }
        }
        return (0..<count).map { _ in
            let base = stations[random.below(stations.count)]
            return covered {
                Coordinate(lat: sixDecimals(base.lat + random.uniform(-0.03, 0.03)),
                           lng: sixDecimals(base.lng + random.uniform(-0.045, 0.045)))
            }
        }
    }

    static let redraws = 20

    /// The query of request number `sequence`, when its reply's content can be checked.
    func query(_ sequence: Int) -> LookupQuery? {
        queries.isEmpty ? nil : queries[sequence % queries.count]
    }

    /// The whole request frame for request number `sequence`.
    func frame(_ sequence: Int) -> Data {
        var bytes: [UInt8] = []
        frame(sequence, into: &bytes)
        return Data(bytes)
    }

    /// Writes the request frame for request number `sequence` into `bytes` (reused between
    /// requests, so the generator allocates nothing per request).
    func frame(_ sequence: Int, into bytes: inout [UInt8]) {
        bytes.removeAll(keepingCapacity: true)
        bytes.append(contentsOf: #"{"v":1,"id":""#.utf8)
        bytes.append(contentsOf: String(sequence).utf8)
        bytes.append(contentsOf: #"","type":""#.utf8)
        bytes.append(contentsOf: typeName.utf8)
        bytes.append(contentsOf: #"","body":"#.utf8)
        bytes.append(contentsOf: bodies[sequence % bodies.count])
        bytes.append(UInt8(ascii: "}"))
    }
}
