import Foundation

/// Optional conditions a lookup answer must meet. The default admits every station.
public struct LookupFilter: Sendable, Hashable {
    /// Oldest acceptable price age in seconds: a station qualifies when `updated >= now - maxAge`.
    /// A NaN age admits no station.
    public var maxAge: TimeInterval?
    /// The moment `maxAge` counts back from.
    public var now: Date
    /// Forecourt brand, compared case-insensitively (`lowercased()` on both sides).
    public var brand: String?
    /// Retailer (feed) slug, compared case-insensitively (`lowercased()` on both sides).
    public var retailer: String?

    public init(maxAge: TimeInterval? = nil, now: Date = Date(), brand: String? = nil, retailer: String? = nil) {
        self.maxAge = maxAge
        self.now = now
        self.brand = brand
        self.retailer = retailer
    }

    /// Admits every station.
    public static let none = LookupFilter(now: Date(timeIntervalSinceReferenceDate: 0))

    var isUnrestricted: Bool { maxAge == nil && brand == nil && retailer == nil }
}

/// A `LookupFilter` turned into the index's own terms: a cut-off in seconds and table ids.
struct ResolvedFilter: Sendable {
    /// Stations updated before this (seconds since the reference date) are out; -inf admits all.
    var cutoffSeconds: Double
    /// Required brand id, or -1 for any.
    var brand: Int32
    /// Required retailer id, or -1 for any.
    var retailer: Int32

    static let unrestricted = ResolvedFilter(cutoffSeconds: -.infinity, brand: -1, retailer: -1)

    @inline(__always)
    func admits(_ record: StationRecord) -> Bool {
        record.updatedSeconds >= cutoffSeconds
            && (brand < 0 || record.brand == brand)
            && (retailer < 0 || record.retailer == retailer)
    }
}
