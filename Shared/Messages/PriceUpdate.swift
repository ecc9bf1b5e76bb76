import Foundation

/// One retailer's whole station set as of a version: what price-ingest publishes after every
/// accepted feed and what a snapshot returns (the zguide's Clone pattern, keyed by retailer).
/// Published with no stations, it says the retailer was removed (`ingest.remove`) at that version;
/// a feed with none is never stored.
///
/// Versions come from one counter that increases by one on every accepted change, so a replica
/// that sees version N+2 after N knows it missed one and resynchronises.
public struct RetailerState: Codable, Sendable {
    /// The version at which this retailer's stations were last replaced.
    public var version: UInt64
    public var retailer: String
    /// The feed's own `last_updated`.
    public var updated: Date
    public var stations: [Station]
    /// The fingerprint of the feed the stations came from (`ingest.status`'s 16 hex digits); absent
    /// for a removal and from older publishers. Two states of one retailer at one version are the
    /// same only when their fingerprints are: after price-ingest's whole volume is put back from an
    /// older copy, its versions count on again for other prices.
    public var fingerprint: String?

    public init(version: UInt64, retailer: String, updated: Date, stations: [Station], fingerprint: String? = nil) {
        self.version = version
        self.retailer = retailer
        self.updated = updated
        self.stations = stations
        self.fingerprint = fingerprint
    }
}

/// The PUB topics of price-ingest (first frame of each message).
public enum PriceTopic {
    /// Frame 2: a `RetailerState` JSON.
    public static let update = "prices.update"
    /// Frame 2: a `PriceHeartbeat` JSON, once a second, so an idle replica still notices gaps.
    public static let heartbeat = "prices.heartbeat"
}

/// The publisher's current version, sent when nothing else is.
public struct PriceHeartbeat: Codable, Sendable {
    public var version: UInt64
    /// The store's identity (`SnapshotReply.store`); absent from older publishers.
    public var store: String?
    /// The fingerprint of the feed stored at `version` (`RetailerState.fingerprint`); absent when that
    /// change was a removal, and from older publishers. A replica at this version holding another
    /// fingerprint for it has other prices: it resynchronises.
    public var head: String?
    public init(version: UInt64, store: String? = nil, head: String? = nil) {
        self.version = version
        self.store = store
        self.head = head
    }
}

/// `ingest.snapshot` request: no retailer for the index, a retailer for its whole state.
public struct SnapshotRequest: Codable, Sendable {
    public var retailer: String?
    public init(retailer: String? = nil) { self.retailer = retailer }
}

/// `ingest.snapshot` reply.
public struct SnapshotReply: Codable, Sendable {
    /// One row of the index.
    public struct Entry: Codable, Sendable, Hashable {
        public var retailer: String
        public var version: UInt64
        public var stationCount: Int
        /// The stored feed's fingerprint (`RetailerState.fingerprint`).
        public var fingerprint: String?
        public init(retailer: String, version: UInt64, stationCount: Int, fingerprint: String? = nil) {
            self.retailer = retailer
            self.version = version
            self.stationCount = stationCount
            self.fingerprint = fingerprint
        }
    }

    /// The global version the snapshot was taken at.
    public var version: UInt64
    /// Every retailer and its version (when no retailer was asked for).
    public var retailers: [Entry]?
    /// The asked-for retailer's whole state.
    public var state: RetailerState?
    /// The store's identity, made when its file was created: a store started afresh (a lost volume)
    /// has a new one, so a replica reloads everything even where the versions happen to match.
    public var store: String?
    /// With the index: the fingerprint of the feed stored at `version` (`PriceHeartbeat.head`).
    public var head: String?

    public init(version: UInt64, retailers: [Entry]? = nil, state: RetailerState? = nil, store: String? = nil,
                head: String? = nil) {
        self.version = version
        self.retailers = retailers
        self.state = state
        self.store = store
        self.head = head
    }
}

/// `ingest.feed` request body (contract): an inline feed or a URL.
public struct IngestFeedRequest: Codable, Sendable {
    public var retailer: String
    public var feed: JSONValue?
    public var url: String?

    /// The largest feed document price-ingest takes, however it comes (inline, a file, an HTTP
    /// body): 32 MiB, past the largest real feed (~22 MB for 100,000 stations).
    public static let maxFeedBytes = 32 << 20

    public init(retailer: String, feed: JSONValue? = nil, url: String? = nil) {
        self.retailer = retailer
        self.feed = feed
        self.url = url
    }
}

/// `ingest.feed` reply body: what was stored, refused and why.
public struct IngestFeedReply: Codable, Sendable {
    public var retailer: String
    /// Stations stored (including ones kept out of answers for unusable coordinates).
    public var accepted: Int
    /// Records refused entirely.
    public var rejected: Int
    /// Stations stored but kept out of answers (no usable location).
    public var withoutLocation: Int
    /// The version this ingest created.
    public var version: UInt64
    public var updated: Date
    /// Human sentences: what was refused or flagged and why, with counts.
    public var warnings: [String]
    public var refusedByReason: [String: Int]
    public var warningsByKind: [String: Int]

    public init(retailer: String, accepted: Int, rejected: Int, withoutLocation: Int, version: UInt64,
                updated: Date, warnings: [String], refusedByReason: [String: Int], warningsByKind: [String: Int]) {
        self.retailer = retailer
        self.accepted = accepted
        self.rejected = rejected
        self.withoutLocation = withoutLocation
        self.version = version
        self.updated = updated
        self.warnings = warnings
        self.refusedByReason = refusedByReason
        self.warningsByKind = warningsByKind
    }
}
