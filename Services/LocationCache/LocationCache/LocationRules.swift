import Foundation
import Messages

/// The input rules of location-cache. Every refusal is `bad_request` with a sentence that names
/// the field and the rule, never the value sent (it may be a position or a user id).
public enum LocationRules {
    /// How far ahead of the service's clock a location's `at` may be (clock skew of the sender).
    public static let maxFutureSkew: TimeInterval = 5 * 60

    /// A user id: 1...128 characters, no control characters (`UserID`, the router's rule too).
    public static func checkUser(_ user: String) throws(ServiceError) {
        try UserID.check(user)
    }

    /// WGS84 decimal degrees: finite, latitude within ±90, longitude within ±180.
    public static func checkCoordinate(lat: Double, lng: Double) throws(ServiceError) {
        guard lat.isFinite, (-90...90).contains(lat) else {
            throw .badRequest("lat must be a number of degrees between -90 and 90")
        }
        guard lng.isFinite, (-180...180).contains(lng) else {
            throw .badRequest("lng must be a number of degrees between -180 and 180")
        }
    }

    /// An observation time: not already past the TTL, and at most `maxFutureSkew` ahead of `now`.
    public static func checkObservationTime(_ at: Date, now: Date, ttl: TimeInterval) throws(ServiceError) {
        guard at.timeIntervalSince1970.isFinite else { throw .badRequest("at must be a valid time") }
        guard at.addingTimeInterval(ttl) > now else {
            throw .badRequest("at is older than the location TTL (\(describe(ttl))): that location has expired")
        }
        guard at.timeIntervalSince(now) <= maxFutureSkew else {
            throw .badRequest("at is more than \(describe(maxFutureSkew)) in the future")
        }
    }

    /// A search radius in miles within `Preferences.radiusRange`.
    public static func checkRadius(_ miles: Double) throws(ServiceError) {
        let range = Preferences.radiusRange
        guard miles.isFinite, range.contains(miles) else {
            throw .badRequest("radiusMiles must be between \(Int(range.lowerBound)) and \(Int(range.upperBound)) miles")
        }
    }

    /// A duration for messages: `24h`, `90m`, `45s`.
    static func describe(_ seconds: TimeInterval) -> String {
        if seconds >= 3600, seconds.truncatingRemainder(dividingBy: 3600) == 0 { return "\(Int(seconds / 3600))h" }
        if seconds >= 60, seconds.truncatingRemainder(dividingBy: 60) == 0 { return "\(Int(seconds / 60))m" }
        return "\(seconds.formatted(.number.precision(.fractionLength(0...3))))s"
    }
}
