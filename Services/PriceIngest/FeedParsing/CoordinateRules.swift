import Messages

/// Judges a station's reported latitude and longitude.
enum CoordinateRules {
    /// The UK box (`UKArea`): latitude 49.8...61, longitude -8.7...1.9.
    static let latitudes = UKArea.latitudes
    static let longitudes = UKArea.longitudes

    /// What the reported coordinates are worth.
    enum Verdict: Equatable {
        /// Inside the UK box.
        case usable(Coordinate)
        /// Missing, non-numeric or `0,0`.
        case bad
        /// Outside the box, but inside it read as (longitude, latitude).
        case swapped
        /// Outside the box either way (e.g. Gibraltar).
        case outsideUK
    }

    static func judge(latitude: Double?, longitude: Double?) -> Verdict {
        guard let latitude, let longitude, latitude.isFinite, longitude.isFinite else { return .bad }
        if latitude == 0 && longitude == 0 { return .bad }
        if isInUK(latitude: latitude, longitude: longitude) {
            return .usable(Coordinate(lat: latitude, lng: longitude))
        }
        if isInUK(latitude: longitude, longitude: latitude) { return .swapped }
        return .outsideUK
    }

    static func isInUK(latitude: Double, longitude: Double) -> Bool {
        latitudes.contains(latitude) && longitudes.contains(longitude)
    }
}

/// Site-id checks on top of the shared `Geohash` decoder.
extension Geohash {
    /// A site id further than this from its coordinates raises `geohash_mismatch`.
    static let mismatchKilometres = 5.0
    /// The cell centre when a site id looks like a geohash: 7 to 12 geohash characters, not all digits
    /// (CMA ids are 12, Karan's 9; a short or all-digit id is more likely a retailer's own number).
    static func decodeSiteId(_ siteId: String) -> Coordinate? {
        guard (7...12).contains(siteId.unicodeScalars.count),
              siteId.unicodeScalars.contains(where: { !("0"..."9").contains($0) }) else { return nil }
        return decode(siteId)
    }

    /// Kilometres between two points (great circle).
    static func kilometres(_ a: Coordinate, _ b: Coordinate) -> Double {
        a.distanceMiles(to: b) * 1.609344
    }
}
