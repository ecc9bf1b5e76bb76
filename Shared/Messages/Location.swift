import Foundation

/// `location.put` body (contract v1).
public struct LocationPutRequest: Codable, Sendable {
    public var user: String
    public var lat: Double
    public var lng: Double
    /// When the location was observed; default: now.
    public var at: Date?

    public init(user: String, lat: Double, lng: Double, at: Date? = nil) {
        self.user = user
        self.lat = lat
        self.lng = lng
        self.at = at
    }
}

/// `location.put` reply: `{"stored": true, "at": ..., "expiresAt": ..., "preferences": {...}}`.
///
/// `stored` is false when a newer location was already held for the user (a late or repeated
/// put never overwrites a fresher position); `at` and `expiresAt` then describe the one kept.
/// `preferences` are the user's (as `preferences.get` gives them), so a caller that stores a
/// position and then needs the settings, as the router does on every ask, makes one call.
public struct LocationPutReply: Codable, Sendable, Equatable {
    public var stored: Bool
    public var at: Date
    public var expiresAt: Date
    public var preferences: Preferences?

    public init(stored: Bool, at: Date, expiresAt: Date, preferences: Preferences? = nil) {
        self.stored = stored
        self.at = at
        self.expiresAt = expiresAt
        self.preferences = preferences
    }
}

/// `location.get` / `location.forget` / `preferences.get` body.
public struct UserRequest: Codable, Sendable {
    public var user: String
    public init(user: String) { self.user = user }
}

/// `location.get` reply: the last-known location and its time (expired ones are `not_found`).
public struct LocationReply: Codable, Sendable, Equatable {
    public var lat: Double
    public var lng: Double
    public var at: Date
    /// Age in seconds at the time of the reply.
    public var ageSeconds: Double

    public init(lat: Double, lng: Double, at: Date, ageSeconds: Double) {
        self.lat = lat
        self.lng = lng
        self.at = at
        self.ageSeconds = ageSeconds
    }
}

/// `location.forget` reply.
public struct ForgetReply: Codable, Sendable {
    /// True when anything was held about the user.
    public var forgotten: Bool
    public init(forgotten: Bool) { self.forgotten = forgotten }
}

/// The distance unit a user hears.
public enum DistanceUnit: String, Codable, Sendable, CaseIterable {
    case miles, km

    public static let kilometresPerMile = 1.609344
}

/// A user's preferences (`preferences.get` reply, `preferences.set` result).
public struct Preferences: Codable, Sendable, Equatable {
    /// Search radius in miles, 1...50 (default 5).
    public var radiusMiles: Double
    public var unit: DistanceUnit

    public static let defaultRadiusMiles = 5.0
    public static let radiusRange: ClosedRange<Double> = 1...50
    public static let `default` = Preferences(radiusMiles: defaultRadiusMiles, unit: .miles)

    /// Whether a search radius is the largest one, within rounding (80.46 km is 49.996 miles): a
    /// search that found nothing there cannot look further.
    public static func isLargestRadius(_ miles: Double) -> Bool {
        miles >= radiusRange.upperBound - 0.01
    }

    /// `radiusRange` in whole units of `unit`, rounded inward: 1...50 miles, 2...80 km (what the
    /// assistant says a user may choose).
    public static func radiusLimits(in unit: DistanceUnit) -> ClosedRange<Int> {
        let perMile = unit == .km ? DistanceUnit.kilometresPerMile : 1
        let lowest = Int((radiusRange.lowerBound * perMile).rounded(.up))
        let highest = Int((radiusRange.upperBound * perMile).rounded(.down))
        return lowest...max(lowest, highest)
    }

    public init(radiusMiles: Double, unit: DistanceUnit) {
        self.radiusMiles = radiusMiles
        self.unit = unit
    }
}

/// A three-way update of one setting: set to a value, cleared back to the default, or not
/// mentioned (absent key). On the wire: `{"set": 10}`, `{"clear": true}`, or the key left out.
public enum SettingUpdate<Value: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    case set(Value)
    case clear

    private enum CodingKeys: String, CodingKey { case set, clear }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if container.contains(.set) && container.contains(.clear) {
            // Which one was meant is a guess: set used to win, silently.
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                debugDescription: "expected {\"set\": value} or {\"clear\": true}, not both"))
        }
        if let value = try container.decodeIfPresent(Value.self, forKey: .set) {
            self = .set(value)
        } else if try container.decodeIfPresent(Bool.self, forKey: .clear) == true {
            self = .clear
        } else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                debugDescription: "expected {\"set\": value} or {\"clear\": true}"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .set(let value): try container.encode(value, forKey: .set)
        case .clear: try container.encode(true, forKey: .clear)
        }
    }
}

/// `preferences.set` body: each setting set, cleared, or not mentioned (nil leaves it as it is).
public struct PreferencesUpdate: Codable, Sendable {
    public var user: String
    public var radiusMiles: SettingUpdate<Double>?
    public var unit: SettingUpdate<DistanceUnit>?

    public init(user: String, radiusMiles: SettingUpdate<Double>? = nil, unit: SettingUpdate<DistanceUnit>? = nil) {
        self.user = user
        self.radiusMiles = radiusMiles
        self.unit = unit
    }
}
