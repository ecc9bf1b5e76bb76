/// The area FuelBoard has prices for: a box around the UK (the CMA scheme's stations). Feeds'
/// coordinates outside it keep a station out of answers; a user outside the UK is told so.
public enum UKArea {
    public static let latitudes: ClosedRange<Double> = 49.8...61
    public static let longitudes: ClosedRange<Double> = -8.7...1.9

    /// Inside the box (feeds: a station outside it is kept out of answers).
    public static func contains(latitude: Double, longitude: Double) -> Bool {
        latitudes.contains(latitude) && longitudes.contains(longitude)
    }

    public static func contains(_ point: Coordinate) -> Bool {
        contains(latitude: point.lat, longitude: point.lng)
    }

    /// Whether a user at `point` is in the UK, as far as the box less its cut-outs tells: the
    /// French coast (Calais, Boulogne; Normandy south of the Isle of Wight), the Republic of Ireland (south of
    /// Northern Ireland, and west of its border) and the Isle of Man (a Crown dependency, no CMA
    /// stations: it was answered with Whitehaven, 45 miles across the sea). Never wrong for Great Britain, the islands or
    /// Northern Ireland; a few Irish places by the border (Donegal, Monaghan) count as in, and
    /// get "nothing in range" or a station across the border.
    public static func includesUser(at point: Coordinate) -> Bool {
        guard contains(point) else { return false }
        let isFrenchCoast = (point.lat < 51.0 && point.lng > 1.45) || (point.lat < 50.5 && point.lng > -1.0)
        let isIrelandSouthOfNorthernIreland = point.lat >= 51.35 && point.lat < 54.0 && point.lng < -5.45
        let isIrelandWestOfTheBorder = point.lat >= 54.0 && point.lat < 55.5 && point.lng < -8.2
        let isIsleOfMan = (54.03...54.43).contains(point.lat) && (-4.86 ... -4.30).contains(point.lng)
        return !(isFrenchCoast || isIrelandSouthOfNorthernIreland || isIrelandWestOfTheBorder || isIsleOfMan)
    }
}
