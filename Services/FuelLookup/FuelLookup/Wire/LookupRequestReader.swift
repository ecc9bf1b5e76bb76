import Messages
import ServiceKit

/// Reads a `lookup.cheapest` / `lookup.nearest` body straight from the request bytes (the hot
/// path: no decoder, no intermediate tree). Unknown members are ignored, as the decoder would;
/// a member of the wrong type is `bad_request` naming it (never quoting the value).
enum LookupRequestReader {
    static func read(_ incoming: IncomingRequest) throws(ServiceError) -> LookupRequest {
        var request = LookupRequest(fuel: nil, lat: .nan, lng: .nan)
        var sawLat = false, sawLng = false
        let isObject = try incoming.forEachBodyMember { bytes, key, value throws(ServiceError) in
            guard !JSONObjectReader.isNull(bytes, value) else { return }
            if key.matches("lat") {
                request.lat = try number(bytes, value, "lat")
                sawLat = true
            } else if key.matches("lng") {
                request.lng = try number(bytes, value, "lng")
                sawLng = true
            } else if key.matches("fuel") {
                request.fuel = try string(bytes, value, "fuel")
            } else if key.matches("radiusMiles") {
                request.radiusMiles = try number(bytes, value, "radiusMiles")
            } else if key.matches("limit") {
                let limit = try number(bytes, value, "limit")
                guard limit == limit.rounded(), abs(limit) < 1e9 else {
                    throw .badRequest("limit must be a whole number")
                }
                request.limit = Int(limit)
            } else if key.matches("maxAgeHours") {
                request.maxAgeHours = try number(bytes, value, "maxAgeHours")
            } else if key.matches("brand") {
                request.brand = try string(bytes, value, "brand")
            } else if key.matches("retailer") {
                request.retailer = try string(bytes, value, "retailer")
            }
        }
        guard isObject else { throw .badRequest("the body must be a JSON object") }
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
