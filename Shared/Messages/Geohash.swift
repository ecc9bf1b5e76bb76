/// Geohash (base-32 interleaved longitude/latitude bisection), as the CMA feeds use for `site_id`:
/// encoded by the sample-feed generator, decoded by the feed validator to flag site ids that
/// disagree with their coordinates.
public enum Geohash {
    private static let alphabet = Array("0123456789bcdefghjkmnpqrstuvwxyz".utf8)

    /// The geohash of a point, `length` characters long (12 in most feeds, ~3.7 cm x 1.9 cm).
    public static func encode(latitude: Double, longitude: Double, length: Int = 12) -> String {
        var latitudeRange = (low: -90.0, high: 90.0)
        var longitudeRange = (low: -180.0, high: 180.0)
        var output: [UInt8] = []
        output.reserveCapacity(max(0, length))
        var isLongitudeBit = true
        var bitCount = 0
        var character = 0
        while output.count < length {
            let value = isLongitudeBit ? longitude : latitude
            let middle = isLongitudeBit ? (longitudeRange.low + longitudeRange.high) / 2
                : (latitudeRange.low + latitudeRange.high) / 2
            let isSet = value >= middle
            character = character << 1 | (isSet ? 1 : 0)
            switch (isLongitudeBit, isSet) {
            case (true, true): longitudeRange.low = middle
            case (true, false): longitudeRange.high = middle
            case (false, true): latitudeRange.low = middle
            case (false, false): latitudeRange.high = middle
            }
            isLongitudeBit.toggle()
            bitCount += 1
            if bitCount == 5 {
                output.append(alphabet[character])
                bitCount = 0
                character = 0
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The centre of the cell a geohash names, or nil unless `text` is 1 to 12 geohash
    /// characters (lower case, as the alphabet is written).
    public static func decode(_ text: String) -> Coordinate? {
        let bytes = Array(text.utf8)
        guard (1...12).contains(bytes.count) else { return nil }
        var latitudeRange = (low: -90.0, high: 90.0)
        var longitudeRange = (low: -180.0, high: 180.0)
        var isLongitudeBit = true
        for byte in bytes {
            guard let value = alphabet.firstIndex(of: byte) else { return nil }
            for shift in stride(from: 4, through: 0, by: -1) {
                let isSet = (value >> shift) & 1 == 1
                if isLongitudeBit {
                    let middle = (longitudeRange.low + longitudeRange.high) / 2
                    if isSet { longitudeRange.low = middle } else { longitudeRange.high = middle }
                } else {
                    let middle = (latitudeRange.low + latitudeRange.high) / 2
                    if isSet { latitudeRange.low = middle } else { latitudeRange.high = middle }
                }
                isLongitudeBit.toggle()
            }
        }
        return Coordinate(lat: (latitudeRange.low + latitudeRange.high) / 2,
                          lng: (longitudeRange.low + longitudeRange.high) / 2)
    }
}
