import Foundation
import Messages
import SQLite

/// A user's stored preference settings; nil means "not set, use the default".
public struct StoredPreferences: Sendable, Equatable {
    public var radiusMiles: Double?
    public var unit: DistanceUnit?

    public init(radiusMiles: Double? = nil, unit: DistanceUnit? = nil) {
        self.radiusMiles = radiusMiles
        self.unit = unit
    }

    /// True when nothing is set (no row needs to exist).
    public var isEmpty: Bool { radiusMiles == nil && unit == nil }

    /// The effective preferences: each unset setting at its default.
    public var resolved: Preferences {
        Preferences(radiusMiles: radiusMiles ?? Preferences.defaultRadiusMiles, unit: unit ?? Preferences.default.unit)
    }
}

extension LocationStore {
    /// The user's stored settings (empty when none are stored).
    public func preferences(user: String) throws -> StoredPreferences {
        guard preferencesFilter.mayContain(user) else { return StoredPreferences() }
        try selectPreferences.bind(user, at: 1)
        defer { selectPreferences.reset() }
        guard try selectPreferences.step() == .row else { return StoredPreferences() }
        if !selectPreferences.isNull(at: 0) && !selectPreferences.isNumber(at: 0) {
            throw LocationStoreError.corruptRow(table: "preferences", column: "radius_miles")
        }
        var stored = StoredPreferences(radiusMiles: selectPreferences.optionalDouble(at: 0))
        if let text = selectPreferences.optionalString(at: 1) {
            guard let unit = DistanceUnit(rawValue: text) else {
                throw LocationStoreError.corruptRow(table: "preferences", column: "unit")
            }
            stored.unit = unit
        }
        return stored
    }

    /// Replaces the user's settings; an empty value deletes the row (nothing kept that says nothing).
    public func setPreferences(_ preferences: StoredPreferences, user: String) throws {
        try refuseIfFileGone()
        if preferences.isEmpty {
            try deletePreferences.bind(user, at: 1)
            try deletePreferences.run()
            return
        }
        try notePreferences(of: user)
        try upsertPreferences.bind(user, at: 1)
        try upsertPreferences.bind(preferences.radiusMiles, at: 2)
        try upsertPreferences.bind(preferences.unit?.rawValue, at: 3)
        try upsertPreferences.run()
    }

    /// Adds `user` to the filter before its row is written, rebuilding the filter larger first
    /// when it holds more ids than it was sized for.
    private func notePreferences(of user: String) throws {
        if preferencesFilter.isCrowded {
            preferencesFilter = try Self.preferencesFilter(of: database)
        }
        preferencesFilter.insert(user)
    }

    /// A filter holding every user who has a preferences row, sized for twice as many.
    static func preferencesFilter(of database: Database) throws -> PreferencesFilter {
        let rows = try database.prepare("SELECT count(*) FROM preferences").firstRow { $0.int(at: 0) } ?? 0
        var filter = PreferencesFilter(expectedUsers: max(2 * rows, 1))
        try database.prepare("SELECT user_id FROM preferences").forEachRow { filter.insert($0.string(at: 0)) }
        return filter
    }
}
