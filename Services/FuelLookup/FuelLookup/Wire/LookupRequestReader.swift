import Messages
import ServiceKit

/// Reads a `lookup.cheapest` / `lookup.nearest` body straight from the request bytes (the hot
/// path: no decoder, no intermediate tree). Unknown members are ignored, as the decoder would;
/// a member of the wrong type is `bad_request` naming it (never quoting the value).
enum LookupRequestReader {
    static func read(_ incoming: IncomingRequest) throws(ServiceError) -> LookupRequest {
        // Fields in locals, the request built once at the end: a request captured and filled in
        // by the closure was copied whole twice per lookup.
        var fuel: String?, brand: String?, retailer: String?
        var lat: Double?, lng: Double?, radiusMiles: Double?, maxAgeHours: Double?
        var limit: Int?
        var preferFresh: Bool?
        let isObject = try incoming.forEachBodyMember { bytes, key, value throws(ServiceError) in
            guard !JSONObjectReader.isNull(bytes, value) else { return }
            if key.matches("lat") {
                lat = try number(bytes, value, "lat")
            } else if key.matches("lng") {
                lng = try number(bytes, value, "lng")
            } else if key.matches("fuel") {
                fuel = try string(bytes, value, "fuel")
            } else if key.matches("radiusMiles") {
                radiusMiles = try number(bytes, value, "radiusMiles")
            } else if key.matches("limit") {
                let given = try number(bytes, value, "limit")
                guard given == given.rounded(), abs(given) < 1e9 else {
                    throw .badRequest("limit must be a whole number from 1 to \(LookupRequest.maxLimit)")
                }
                limit = Int(given)
            } else if key.matches("maxAgeHours") {
                maxAgeHours = try number(bytes, value, "maxAgeHours")
            } else if key.matches("brand") {
                brand = try string(bytes, value, "brand")
            } else if key.matches("retailer") {
                retailer = try string(bytes, value, "retailer")
            } else if key.matches("preferFresh") {
                guard let flag = JSONObjectReader.bool(bytes, value) else {
                    throw .badRequest("preferFresh must be true or false")
                }
                preferFresh = flag
            }
        }
        guard isObject else { throw .badRequest("the body must be a JSON object") }
        guard let lat else { throw .badRequest("missing field \"lat\"") }
        guard let lng else { throw .badRequest("missing field \"lng\"") }
        return LookupRequest(fuel: fuel, lat: lat, lng: lng, radiusMiles: radiusMiles, limit: limit,
                             maxAgeHours: maxAgeHours, brand: brand, retailer: retailer, preferFresh: preferFresh)
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
