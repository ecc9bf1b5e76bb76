import Messages

/// What a lookup asked, kept beside its pre-encoded frame so its reply can be checked.
struct LookupQuery: Equatable {
    var fuel: String
    var point: Coordinate
    var radiusMiles: Double
    var limit: Int
}

/// Checks what a lookup reply says against the query it answers (contract: `{"results": [...]}`,
/// cheapest first with ties by distance, or nearest first): the fuel asked, every station within
/// the radius of the query point, a plausible price, the order and the limit. Reads the member
/// list of the strict JSON check, so nothing is decoded.
enum LookupCheck {
    enum Problem: String, CaseIterable {
        case noResults = "no results list"
        case incomplete = "a result without price, distance or station position"
        case wrongFuel = "a result for another fuel"
        case outsideRadius = "a station outside the radius"
        case implausiblePrice = "a price outside 50-500p"
        case outOfOrder = "results out of order"
        case tooMany = "more results than the limit"
    }

    /// A price below or above these (pence a litre) is no real price (price-ingest keeps 80-300p).
    static let plausiblePence = 50.0...500.0
    /// Slack on the radius: distances are written to a hundredth of a mile, and the server's
    /// distance may be computed a little differently from the haversine here.
    static func allowedMiles(_ radius: Double) -> Double { radius * 1.005 + 0.02 }

    /// One result as read: its object's offset, fields, and its station object's offset.
    private struct Result {
        var object: Int
        var price: Double?
        var distance: Double?
        var fuel: Range<Int>?
        var station: Int?
    }

    /// The first problem found in an `ok` reply whose envelope is `members` (listed by
    /// `StrictJSON.check`), or nil when its content answers `query`.
    static func problem(in bytes: UnsafeBufferPointer<UInt8>, members: [StrictJSON.Member],
                        query: LookupQuery, nearest: Bool) -> Problem? {
        let body = members.first { $0.depth == 1 && key($0, "body", bytes) }?.value.lowerBound
        guard let body, bytes[body] == UInt8(ascii: "{"),
              let list = members.first(where: { $0.depth == 2 && $0.object == body && key($0, "results", bytes) }),
              bytes[list.value.lowerBound] == UInt8(ascii: "[") else { return .noResults }
        var results: [Result] = []
        var stations: [(object: Int, lat: Double?, lng: Double?)] = []
        for member in members where member.value.lowerBound > list.value.lowerBound
            && member.value.upperBound <= list.value.upperBound {
            if member.depth == 4 {
                if results.last?.object != member.object { results.append(Result(object: member.object)) }
                let index = results.count - 1
                if key(member, "pricePence", bytes) {
                    results[index].price = JSONObjectReader.number(bytes, member.value)
                } else if key(member, "distanceMiles", bytes) {
                    results[index].distance = JSONObjectReader.number(bytes, member.value)
                } else if key(member, "fuel", bytes) {
                    results[index].fuel = member.value
                } else if key(member, "station", bytes), bytes[member.value.lowerBound] == UInt8(ascii: "{") {
                    results[index].station = member.value.lowerBound
                }
            } else if member.depth == 5 {
                if stations.last?.object != member.object { stations.append((member.object, nil, nil)) }
                if key(member, "lat", bytes) {
                    stations[stations.count - 1].lat = JSONObjectReader.number(bytes, member.value)
                } else if key(member, "lng", bytes) {
                    stations[stations.count - 1].lng = JSONObjectReader.number(bytes, member.value)
                }
            }
        }
        if results.count > query.limit { return .tooMany }
        var previous: (price: Double, distance: Double)?
        for result in results {
            guard let price = result.price, let distance = result.distance,
                  let station = stations.first(where: { $0.object == result.station }),
                  let lat = station.lat, let lng = station.lng else { return .incomplete }
            if let fuel = result.fuel, !matches(bytes, fuel, query.fuel) { return .wrongFuel }
            if !plausiblePence.contains(price) { return .implausiblePrice }
            let allowed = allowedMiles(query.radiusMiles)
            if distance > allowed || query.point.distanceMiles(to: Coordinate(lat: lat, lng: lng)) > allowed {
                return .outsideRadius
            }
            if let previous {
                // Distances are rounded to a hundredth: ties within that are in order either way.
                let closer = distance < previous.distance - 0.011
                if nearest ? closer : (price < previous.price || (price == previous.price && closer)) {
                    return .outOfOrder
                }
            }
            previous = (price, distance)
        }
        return nil
    }

    private static func key(_ member: StrictJSON.Member, _ name: StaticString,
                            _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !member.keyHasEscape, member.key.count == name.utf8CodeUnitCount else { return false }
        return bytes[member.key].elementsEqual(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
    }

    /// Whether the JSON string at `range` is `expected` (plain text, no escapes).
    private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ expected: String) -> Bool {
        guard range.count >= 2, bytes[range.lowerBound] == UInt8(ascii: "\"") else { return false }
        return bytes[(range.lowerBound + 1)..<(range.upperBound - 1)].elementsEqual(expected.utf8)
    }
}
