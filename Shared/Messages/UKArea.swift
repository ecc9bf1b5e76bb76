/// The area FuelBoard has prices for: a box around the UK (the CMA scheme's stations). Feeds'
/// coordinates outside it keep a station out of answers; a user outside it is told so.
public enum UKArea {
    public static let latitudes: ClosedRange<Double> = 49.8...61
    public static let longitudes: ClosedRange<Double> = -8.7...1.9

    public static func contains(latitude: Double, longitude: Double) -> Bool {
        latitudes.contains(latitude) && longitudes.contains(longitude)
    }

    public static func contains(_ point: Coordinate) -> Bool {
        contains(latitude: point.lat, longitude: point.lng)
    }
}
