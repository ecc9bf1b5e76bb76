/// Kinds of warning a feed can raise. The raw value is the key in `ParsedFeed.warnings`.
///
/// A warning never removes a station: it records what was odd and what the parser did about it.
public enum FeedWarning: String, Sendable, CaseIterable, Codable, Hashable {
    /// A price `<= 0`, `< 80` or `>= 300` pence (0, 10, 14, 999.9...): treated as missing.
    case sentinelPrice = "sentinel_price"
    /// A price that is not a number (or a numeric string): treated as missing.
    case invalidPrice = "invalid_price"
    /// A fuel key other than E5, E10, B7, SDV: ignored.
    case unknownFuel = "unknown_fuel"
    /// No `prices` object: the station is kept with no prices.
    case missingPrices = "missing_prices"
    /// E10 dearer than E5, or B7 dearer than SDV.
    case priceInversion = "price_inversion"
    /// More than 30p under or 35p over the feed's median for that fuel (`PriceOutlier`).
    case priceOutlier = "price_outlier"
    /// Coordinates missing, non-numeric or `0,0`: location unusable.
    case badCoordinates = "bad_coordinates"
    /// Latitude and longitude look exchanged (they fit the UK box the other way round): location unusable.
    case swappedCoordinates = "swapped_coordinates"
    /// Coordinates outside the UK box: location unusable.
    case outsideUK = "outside_uk"
    /// The site id, read as a geohash, lies more than 5 km from the coordinates (location unchanged).
    case geohashMismatch = "geohash_mismatch"
    /// A site id already used earlier in the same feed: kept with `#2`, `#3`... in its id.
    case duplicateSiteId = "duplicate_site_id"
    /// A postcode that does not match the UK pattern (kept as given, upper-cased).
    case invalidPostcode = "invalid_postcode"
    /// No brand: the retailer's display name is used.
    case missingBrand = "missing_brand"
    /// No usable address text: the address is empty.
    case missingAddress = "missing_address"
    /// A text field longer than the parser keeps: cut.
    case textTruncated = "text_truncated"
    /// `last_updated` absent: the fetch time is the feed's time (the CMA feeds always carry one).
    case missingLastUpdated = "missing_last_updated"
    /// `last_updated` more than 48 hours before the fetch.
    case staleFeed = "stale_feed"
    /// `last_updated` more than an hour after the fetch.
    case futureLastUpdated = "future_last_updated"
}

/// Why a single record was refused (not kept at all). The raw value is the key in `ParsedFeed.refused`.
public enum RecordRefusal: String, Sendable, CaseIterable, Codable, Hashable {
    /// The list item is not a JSON object.
    case notAnObject = "record_not_object"
    /// `site_id` absent, null, or empty after trimming.
    case missingSiteId = "missing_site_id"
    /// `site_id` present but not a string.
    case siteIdNotString = "site_id_not_string"
    /// `site_id` longer than 64 characters or holding control characters.
    case invalidSiteId = "invalid_site_id"
}

/// Counts issues by kind and keeps the first few human examples of each.
struct IssueLog: Sendable {
    /// How many examples are kept per kind.
    static let examplesPerKind = 3

    private(set) var counts: [String: Int] = [:]
    private(set) var examples: [String: [String]] = [:]

    /// Counts one issue; the example text is only built while fewer than `examplesPerKind` are held.
    mutating func note(_ kind: String, _ example: @autoclosure () -> String) {
        let count = counts[kind, default: 0]
        counts[kind] = count + 1
        if count < Self.examplesPerKind {
            examples[kind, default: []].append(example())
        }
    }
}
