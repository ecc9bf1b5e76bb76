import Messages

/// Reads a `lookup.cheapest` / `lookup.nearest` body straight from the request bytes (the hot
/// path: no decoder, no intermediate tree). Unknown members are ignored, as the decoder would;
/// a member of the wrong type is `bad_request` naming it (never quoting the value).
enum LookupRequestReader {
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) throws(ServiceError) -> LookupRequest {
        guard let members = JSONObjectReader.members(bytes, in: range) else {
            throw .badRequest("the body must be a JSON object")
        }
        var request = LookupRequest(fuel: nil, lat: .nan, lng: .nan)
        var sawLat = false, sawLng = false
        for member in members where !JSONObjectReader.isNull(bytes, member.value) {
            let value = member.value
            switch member.key {
            case "fuel": request.fuel = try string(bytes, value, "fuel")
            case "lat":
                request.lat = try number(bytes, value, "lat")
                sawLat = true
            case "lng":
                request.lng = try number(bytes, value, "lng")
                sawLng = true
            case "radiusMiles": request.radiusMiles = try number(bytes, value, "radiusMiles")
            case "limit":
                let limit = try number(bytes, value, "limit")
                guard limit == limit.rounded(), abs(limit) < 1e9 else {
                    throw .badRequest("limit must be a whole number")
                }
                request.limit = Int(limit)
            case "maxAgeHours": request.maxAgeHours = try number(bytes, value, "maxAgeHours")
            case "brand": request.brand = try string(bytes, value, "brand")
            case "retailer": request.retailer = try string(bytes, value, "retailer")
            default: continue
            }
        }
        guard sawLat else { throw .badRequest("missing field \"lat\"") }
        guard sawLng else { throw .badRequest("missing field \"lng\"") }
        return request
    }

    private static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ name: String)
        throws(ServiceError) -> Double
    {
        guard let value = JSONObjectReader.number(bytes, range) else { throw .badRequest("\(name) must be a number") }
        return value
    }

    private static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ name: String)
        throws(ServiceError) -> String
    {
        guard let value = JSONObjectReader.string(bytes, range) else { throw .badRequest("\(name) must be a string") }
        return value
    }
}
