import Messages
import ServiceKit

/// The `station` object of a body: the texts a render uses (as ranges of plain string text) and
/// the coordinates; the other members only have to be strings. Nil for any object
/// `StationSummary(json:)` would not read to the same value: a member missing, repeated or
/// unknown, a text a render uses written with escapes, a value of another type.
struct WireStation {
    let id: Range<Int>
    let name: Range<Int>
    let postcode: Range<Int>
    let lat: Double
    let lng: Double

    /// Reads the object whose text is at `object` in the payload of `request`, from the members
    /// the request's check found.
    init?(_ request: borrowing IncomingRequest, object: Range<Int>) {
        var id = 0..<0, name = 0..<0, postcode = 0..<0
        var lat = 0.0, lng = 0.0
        var seen: UInt8 = 0
        do {
            let isObject = try request.forEachMember(ofObjectAt: object) { bytes, key, value throws(JSONUnreadable) in
                func text() throws(JSONUnreadable) -> Range<Int> {
                    guard let text = WireValues.plainText(bytes, value) else { throw JSONUnreadable() }
                    return text
                }
                func number() throws(JSONUnreadable) -> Double {
                    guard let number = WireValues.double(bytes, value) else { throw JSONUnreadable() }
                    return number
                }
                let bit: UInt8
                if key.matches("id") {
                    (bit, id) = (1, try text())
                } else if key.matches("name") {
                    (bit, name) = (2, try text())
                } else if key.matches("postcode") {
                    (bit, postcode) = (4, try text())
                } else if key.matches("lat") {
                    (bit, lat) = (8, try number())
                } else if key.matches("lng") {
                    (bit, lng) = (16, try number())
                } else if bytes[value.lowerBound] != UInt8(ascii: "\"") {
                    throw JSONUnreadable()  // the members left have to be strings
                } else if key.matches("retailer") {
                    bit = 32
                } else if key.matches("brand") {
                    bit = 64
                } else if key.matches("address") {
                    bit = 128
                } else {
                    throw JSONUnreadable()
                }
                guard seen & bit == 0 else { throw JSONUnreadable() }
                seen |= bit
            }
            guard isObject, seen == 255 else { return nil }
        } catch {
            return nil
        }
        (self.id, self.name, self.postcode, self.lat, self.lng) = (id, name, postcode, lat, lng)
    }
}
