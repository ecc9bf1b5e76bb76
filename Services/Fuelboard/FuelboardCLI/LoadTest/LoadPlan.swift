import Foundation
import Messages
import SampleFeeds

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
    /// Request frames without their id (`{"v":1,"id":"` is prepended per request).
    let bodies: [Data]
    let typeName: String

    /// UK bounding box used for uniform points.
    static let latitudes = 50.0...58.6
    static let longitudes = -5.6...1.7

    static func make(target: Target, type: MessageType, points: [Coordinate], count: Int, seed: UInt64,
                     radius: Double, fuel: String) throws -> LoadPlan {
        var random = SeededRandom(seed: seed)
        let fuels = ["E10", "B7", "E5", "SDV"]
        let fuelWords = ["unleaded", "diesel", "premium", "super diesel", "petrol"]
        var bodies: [Data] = []
        bodies.reserveCapacity(count)
        for index in 0..<count {
            let point = points[random.below(points.count)]
            let body: Data
            switch target {
            case .lookup:
                let chosenFuel = fuel == "mixed" ? fuels[random.below(fuels.count)] : fuel
                body = try JSONCoding.encode(LookupRequest(fuel: chosenFuel, lat: point.lat, lng: point.lng,
                                                           radiusMiles: radius, limit: 1))
            case .router:
                let word = fuelWords[random.below(fuelWords.count)]
                let ask = AssistantAskRequest(user: "load-\(index % 5000)",
                                              utterance: "Ask FuelBoard for the cheapest \(word) near me",
                                              location: point)
                body = try JSONCoding.encode(ask)
            }
            bodies.append(body)
        }
        return LoadPlan(target: target, bodies: bodies, typeName: type.rawValue)
    }

    /// Query points: jittered around stations (within ~2 miles) or uniform over the UK.
    static func points(_ kind: Points, stations: [Coordinate], count: Int, seed: UInt64) -> [Coordinate] {
        var random = SeededRandom(seed: seed &+ 1)
        if kind == .uniform || stations.isEmpty {
            return (0..<count).map { _ in
                Coordinate(lat: random.uniform(latitudes.lowerBound, latitudes.upperBound),
                           lng: random.uniform(longitudes.lowerBound, longitudes.upperBound))
            }
        }
        return (0..<count).map { _ in
            let base = stations[random.below(stations.count)]
            return Coordinate(lat: base.lat + random.uniform(-0.03, 0.03), lng: base.lng + random.uniform(-0.045, 0.045))
        }
    }

    /// The whole request frame for request number `sequence`.
    func frame(_ sequence: Int) -> Data {
        var data = Data(#"{"v":1,"id":"\#(sequence)","type":"\#(typeName)","body":"#.utf8)
        data.append(bodies[sequence % bodies.count])
        data.append(UInt8(ascii: "}"))
        return data
    }
}
