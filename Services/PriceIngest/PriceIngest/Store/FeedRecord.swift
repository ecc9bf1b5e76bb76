import Foundation

/// What the store knows about one retailer's feed: the last replace and the last failure.
public struct FeedRecord: Codable, Sendable, Hashable {
    /// The retailer slug (`asda`).
    public var retailer: String
    /// The store version at which this retailer's stations were last replaced; nil if never.
    public var version: UInt64?
    /// The feed's own `last_updated` time of the stored stations.
    public var updated: Date?
    /// When the stored stations were fetched.
    public var fetchedAt: Date?
    /// How many stations the last replace stored.
    public var stationCount: Int
    /// When the last replace committed (the store's clock).
    public var lastSuccessAt: Date?
    /// When the last failure happened, and what it was. Kept after a later success.
    public var lastErrorAt: Date?
    public var lastError: String?
    /// Where the failed fetch came from, if known.
    public var lastErrorSource: String?
    /// Where the stored stations came from (URL or file), if known.
    public var source: String?

    public init(retailer: String, version: UInt64? = nil, updated: Date? = nil, fetchedAt: Date? = nil,
                stationCount: Int = 0, lastSuccessAt: Date? = nil, lastErrorAt: Date? = nil,
                lastError: String? = nil, lastErrorSource: String? = nil, source: String? = nil) {
        self.retailer = retailer
        self.version = version
        self.updated = updated
        self.fetchedAt = fetchedAt
        self.stationCount = stationCount
        self.lastSuccessAt = lastSuccessAt
        self.lastErrorAt = lastErrorAt
        self.lastError = lastError
        self.lastErrorSource = lastErrorSource
        self.source = source
    }

    /// True when the latest attempt failed: a failure recorded after the stored data was
    /// fetched, or a failure and no data at all.
    public var isFailing: Bool {
        guard let lastErrorAt else { return false }
        guard let fetchedAt else { return true }
        return lastErrorAt > fetchedAt
    }
}
