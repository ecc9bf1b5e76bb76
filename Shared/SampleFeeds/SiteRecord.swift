import Foundation
import Messages

/// One station as a feed writes it, plus the clean values a careful parser would recover.
struct SiteRecord: Sendable {
    /// `site_id` as written (may carry leading spaces).
    var writtenSiteId: String
    /// The site id, trimmed.
    var siteId: String
    var writtenBrand: String
    /// The brand normalised (`ESSO` -> `Esso`); empty when the feed's brand is empty.
    var brand: String
    var writtenAddress: String
    var writtenPostcode: String
    /// The postcode as `AA9A 9AA`.
    var postcode: String
    /// Coordinates as integers scaled by 10^decimals (exact, so the geohash matches the text).
    var latitudeScaled: Int64
    var longitudeScaled: Int64
    var decimals: Int
    var coordinateForm: CoordinateForm
    var prices: [(fuel: FuelCode, value: PriceValue)]
    var locality: String
    var kind: SiteKind
    var quirk: SampleQuirk?

    var latitude: Double { Double(latitudeScaled) / Self.scale(decimals) }
    var longitude: Double { Double(longitudeScaled) / Self.scale(decimals) }

    static func scale(_ decimals: Int) -> Double {
        var value = 1.0
        for _ in 0..<decimals { value *= 10 }
        return value
    }

    /// Whether a quirk can be planted on this record.
    func accepts(_ quirk: SampleQuirk, style: AddressStyle, position: Int) -> Bool {
        switch quirk {
        case .sentinelPrice, .floatNoisePrice: !prices.isEmpty
        case .upperCaseAddress: !style.isUpperCase && writtenAddress != writtenAddress.uppercased()
        case .duplicateSiteId: position > 0
        case .noBreakSpaceInAddress: writtenAddress.contains(" ")
        default: true
        }
    }

    /// The station as price-ingest would store it: trimmed id, normalised text, sentinels dropped,
    /// no location for `0,0`. `occurrence` is 1 for the first record with this site id in the feed.
    func station(retailer: String, occurrence: Int, updated: Date) -> Station {
        let idSuffix = occurrence > 1 ? "#\(occurrence)" : ""
        let location: Coordinate? = coordinateForm == .zero ? nil : Coordinate(lat: latitude, lng: longitude)
        var valid: FuelPrices = [:]
        for (fuel, value) in prices where value.tenths >= 800 && value.tenths < 3000 {
            valid[fuel] = Price(tenths: value.tenths)
        }
        let cleanAddress = quirk == .noBreakSpaceInAddress
            ? writtenAddress.replacingOccurrences(of: "\u{00A0}", with: " ")
            : writtenAddress // generated addresses have single spaces and no padding
        return Station(
            id: "\(retailer)/\(siteId)\(idSuffix)", retailer: retailer, siteId: siteId, brand: brand,
            name: "\(brand.isEmpty ? retailer.uppercased() : brand) \(locality)", address: cleanAddress,
            postcode: postcode, location: location,
            reportedLatitude: coordinateForm == .zero ? 0 : latitude,
            reportedLongitude: coordinateForm == .zero ? 0 : longitude,
            prices: valid, updated: updated)
    }
}
