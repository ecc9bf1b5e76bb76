import Foundation

/// One forecourt as price-ingest stores it and fuel-lookup serves it: normalised, validated.
///
/// A station whose coordinates are unusable keeps its record (`location == nil`, the raw values
/// in `reportedLatitude`/`reportedLongitude`) but never appears in a lookup answer.
public struct Station: Codable, Sendable, Hashable {
    /// Unique within the system: `<retailer>/<siteId>`, with `#2`, `#3`... appended to the
    /// second and later records that share a site id inside one feed (duplicates are never merged).
    public var id: String
    /// The feed the record came from (lower-case slug, e.g. `asda`): not the forecourt brand.
    public var retailer: String
    /// The retailer's site id, trimmed.
    public var siteId: String
    /// The forecourt brand, normalised (`ESSO`, `Esso ` -> `Esso`).
    public var brand: String
    /// A short speakable name built from brand and address ("Tesco Selby").
    public var name: String
    /// Address with whitespace normalised.
    public var address: String
    /// Postcode normalised to `AA9A 9AA` form where possible.
    public var postcode: String
    /// Usable coordinates, or nil when the feed's were missing, `0,0`, outside the UK or swapped.
    public var location: Coordinate?
    /// Coordinates as the feed gave them (kept for the record even when unusable).
    public var reportedLatitude: Double?
    public var reportedLongitude: Double?
    /// Valid prices only: sentinels (0, 10, 999.9...) are absent here, never stored as prices.
    public var prices: FuelPrices
    /// The feed's `last_updated`, as an absolute time (parsed as Europe/London).
    public var updated: Date

    public init(id: String, retailer: String, siteId: String, brand: String, name: String,
                address: String, postcode: String, location: Coordinate?,
                reportedLatitude: Double?, reportedLongitude: Double?,
                prices: FuelPrices, updated: Date) {
        self.id = id
        self.retailer = retailer
        self.siteId = siteId
        self.brand = brand
        self.name = name
        self.address = address
        self.postcode = postcode
        self.location = location
        self.reportedLatitude = reportedLatitude
        self.reportedLongitude = reportedLongitude
        self.prices = prices
        self.updated = updated
    }
}
