import Foundation
import Messages
import ServiceKit

extension LocationPutRequest {
    /// The body of a `location.put`, read from the members the request's strict check already
    /// found, so its bytes are not walked a second time. It takes exactly what
    /// `LocationPutRequest(json:)` takes and reads each field the same way (the last of repeated
    /// keys wins, unknown keys are skipped); anything else is nil, and the caller decodes with
    /// `RequestDecoding`, for the value or the error sentence.
    static func read(from request: IncomingRequest) -> LocationPutRequest? {
        var user: String?
        var lat, lng: Double?
        var at: Date?
        do {
            let isObject = try request.forEachBodyMember { bytes, key, range throws(JSONUnreadable) in
                let value = JSONSlice(bytes: bytes, range: range)
                if key.matches("user") { user = try value.string() }
                else if key.matches("lat") { lat = try value.double() }
                else if key.matches("lng") { lng = try value.double() }
                else if key.matches("at") { at = try value.nonNull?.date() }
            }
            guard isObject else { return nil }
        } catch {
            return nil
        }
        guard let user, let lat, let lng else { return nil }
        return LocationPutRequest(user: user, lat: lat, lng: lng, at: at)
    }
}
