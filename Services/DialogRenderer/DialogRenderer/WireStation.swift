import Messages

/// The `station` object of a body: the texts a render uses (as ranges of plain string text) and
/// the coordinates; the other members only have to be strings. Nil for any object
/// `StationSummary(json:)` would not read to the same value: a member missing, repeated or
/// unknown, a key with an escape, a text a render uses written with escapes, a value of another type.
struct WireStation {
    let id: Range<Int>
    let name: Range<Int>
    let postcode: Range<Int>
    let lat: Double
    let lng: Double

    /// Reads the object whose opening brace is at `start`: the station and where it ends.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int,
                     _ end: Int) -> (station: WireStation, end: Int)? {
        var id = 0..<0, name = 0..<0, postcode = 0..<0
        var lat = 0.0, lng = 0.0
        var seen: UInt8 = 0
        var index = start + 1
        while true {
            index = CheckedJSONScan.skipWhitespace(bytes, index, end)
            guard index < end else { return nil }
            if bytes[index] == UInt8(ascii: "}") { break }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard let (key, valueStart) = CheckedJSONScan.key(bytes, at: index, end), valueStart < end else {
                return nil
            }
            var text: Range<Int>?  // a string written without escapes
            var number: Double?
            let isString = bytes[valueStart] == UInt8(ascii: "\"")
            if isString {
                let string = CheckedJSONScan.endOfString(bytes, valueStart, end)
                index = string.end
                if !string.hasEscape { text = (valueStart + 1)..<(index - 1) }
            } else {
                guard bytes[valueStart] != UInt8(ascii: "{"), bytes[valueStart] != UInt8(ascii: "[") else { return nil }
                index = CheckedJSONScan.endOfNumber(bytes, valueStart, end)
                number = WireValues.double(bytes, valueStart..<index)
            }
            let bit: UInt8
            switch key.count {
            case 2 where CheckedJSONScan.equals(bytes, key, "id"):
                guard let text else { return nil }
                (bit, id) = (1, text)
            case 4 where CheckedJSONScan.equals(bytes, key, "name"):
                guard let text else { return nil }
                (bit, name) = (2, text)
            case 8 where CheckedJSONScan.equals(bytes, key, "postcode"):
                guard let text else { return nil }
                (bit, postcode) = (4, text)
            case 3 where CheckedJSONScan.equals(bytes, key, "lat"):
                guard let number else { return nil }
                (bit, lat) = (8, number)
            case 3 where CheckedJSONScan.equals(bytes, key, "lng"):
                guard let number else { return nil }
                (bit, lng) = (16, number)
            case 8 where CheckedJSONScan.equals(bytes, key, "retailer") && isString: bit = 32
            case 5 where CheckedJSONScan.equals(bytes, key, "brand") && isString: bit = 64
            case 7 where CheckedJSONScan.equals(bytes, key, "address") && isString: bit = 128
            default: return nil
            }
            guard seen & bit == 0 else { return nil }
            seen |= bit
        }
        guard seen == 255 else { return nil }
        return (WireStation(id: id, name: name, postcode: postcode, lat: lat, lng: lng), index + 1)
    }
}
