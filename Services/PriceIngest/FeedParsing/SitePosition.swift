import Messages

/// Which of two positions a station is at when its coordinates and its site id's geohash
/// disagree. Neither can be trusted alone: some feeds paste one station's latitude into another's
/// (Ascona: a Sunderland station placed in Galloway, its site id right), others shuffle site ids
/// between stations (Karan, its coordinates right). The postcode settles the clear cases: the
/// site id's position is taken only when the coordinates lie far outside the postcode's area and
/// the site id well inside it; otherwise the coordinates stay.
enum SitePosition {
    /// Coordinates at least this far from the postcode area's town are outside the area: the widest
    /// areas reach about 100 km from it (IV, PH, HS).
    static let outsideAreaKilometres = 100.0

    /// The postcode area and both distances when the site id's position is the one to use, else nil.
    static func siteIdSide(coordinate: Coordinate, siteId: Coordinate, postcode: String)
        -> (letters: String, fromCoordinates: Double, fromSiteId: Double)? {
        guard let area = PostcodeAreas.area(of: postcode) else { return nil }
        let fromCoordinates = Geohash.kilometres(coordinate, area.centre)
        let fromSiteId = Geohash.kilometres(siteId, area.centre)
        guard fromCoordinates >= outsideAreaKilometres, fromSiteId <= fromCoordinates / 3 else { return nil }
        return (area.letters, fromCoordinates, fromSiteId)
    }
}
