import Foundation

/// `ingest.remove` request: a retailer to take out of the store and every replica (one that left
/// the scheme, or a name ingested by mistake).
public struct RemoveRetailerRequest: Codable, Sendable {
    public var retailer: String
    public init(retailer: String) { self.retailer = retailer }
}

/// `ingest.remove` reply body.
public struct RemoveRetailerReply: Codable, Sendable, Equatable {
    public var retailer: String
    /// Stations removed (0 for a feed that only ever failed).
    public var stations: Int
    /// The store version of the removal; replicas drop the retailer when they reach it.
    public var version: UInt64
    /// Sentences for the operator (a configured feed comes back at its next poll).
    public var warnings: [String]

    public init(retailer: String, stations: Int, version: UInt64, warnings: [String] = []) {
        self.retailer = retailer
        self.stations = stations
        self.version = version
        self.warnings = warnings
    }
}
