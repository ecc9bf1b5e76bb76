/// Geohash (base-32 interleaved latitude/longitude bisection), as the CMA feeds use for `site_id`.
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
            if isLongitudeBit {
                let middle = (longitudeRange.low + longitudeRange.high) / 2
                if longitude >= middle {
                    character = character << 1 | 1
                    longitudeRange.low = middle
                } else {
                    character <<= 1
                    longitudeRange.high = middle
                }
            } else {
                let middle = (latitudeRange.low + latitudeRange.high) / 2
                if latitude >= middle {
                    character = character << 1 | 1
                    latitudeRange.low = middle
                } else {
                    character <<= 1
                    latitudeRange.high = middle
                }
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

    /// The centre of the cell a geohash names, or nil if it holds a character outside the alphabet.
    public static func decode(_ hash: String) -> (latitude: Double, longitude: Double)? {
        var latitudeRange = (low: -90.0, high: 90.0)
        var longitudeRange = (low: -180.0, high: 180.0)
        var isLongitudeBit = true
        for byte in hash.lowercased().utf8 {
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
        return ((latitudeRange.low + latitudeRange.high) / 2, (longitudeRange.low + longitudeRange.high) / 2)
    }
}
