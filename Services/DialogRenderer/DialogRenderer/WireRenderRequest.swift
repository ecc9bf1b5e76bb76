import Foundation
import Messages
import ServiceKit

/// A `dialog.render` body read in place from the members the request's strict check found:
/// where its texts are and what its numbers and times are, with no `String` made and no second
/// walk over its bytes. Ranges count from the payload's first byte.
///
/// It reads the bodies the router sends: each known key once, strings without escapes, no other
/// keys. Anything else is declined (nil) and the request goes through `RenderRequest`, whose
/// reader and checks give the reply or the error. What it accepts, it reads to the values
/// `RenderRequest(json:)` reads. (A key is matched by its text with escapes resolved, as the
/// decoder the general path then uses matches it.)
struct WireRenderRequest {
    /// The body's fields, one bit each.
    enum Field: Int, CaseIterable {
        case outcome, locale, now, fuel, station, pricePence, distanceMiles, updated, radiusMiles, unit, word
        case locationAt, priceOutlier, defaultSettings

        /// The field's name in the body and in `DialogOutcome.requiredFields`.
        var name: String {
            switch self {
            case .outcome: "outcome"
            case .locale: "locale"
            case .now: "now"
            case .fuel: "fuel"
            case .station: "station"
            case .pricePence: "pricePence"
            case .distanceMiles: "distanceMiles"
            case .updated: "updated"
            case .radiusMiles: "radiusMiles"
            case .unit: "unit"
            case .word: "word"
            case .locationAt: "locationAt"
            case .priceOutlier: "priceOutlier"
            case .defaultSettings: "defaultSettings"
            }
        }
    }

    /// The fields met so far (a second one declines the body), and those with a value (not `null`).
    private var seen: UInt32 = 0
    private var given: UInt32 = 0
    private(set) var outcome: DialogOutcome?
    /// Ranges of strings' text between their quotes.
    private(set) var locale: Range<Int>?
    private(set) var now: Date?
    private(set) var fuel: Range<Int>?
    private(set) var station: WireStation?
    private(set) var pricePence: Double?
    private(set) var distanceMiles: Double?
    private(set) var updated: Date?
    private(set) var radiusMiles: Double?
    private(set) var unit: DistanceUnit?
    private(set) var word: Range<Int>?
    private(set) var locationAt: Date?
    private(set) var priceOutlier: PriceOutlier?
    private(set) var defaultSettings: Bool?

    /// Reads the body of `request` (whose frame `StrictJSON` has checked); nil declines it.
    init?(_ request: borrowing IncomingRequest) {
        guard request.bodyRange != nil else { return nil }
        var stationObject: Range<Int>?
        do {
            let isObject = try request.forEachBodyMember { bytes, key, value throws(JSONUnreadable) in
                guard let field = Self.field(key) else { throw JSONUnreadable() }
                switch bytes[value.lowerBound] {
                case UInt8(ascii: "{"):
                    // Read once all members are known (declined the same, whatever the order).
                    guard field == .station, take(.station, given: true) else { throw JSONUnreadable() }
                    stationObject = value
                case UInt8(ascii: "["):
                    throw JSONUnreadable()
                default:
                    guard take(field, bytes, value) else { throw JSONUnreadable() }
                }
            }
            guard isObject else { return nil }
        } catch {
            return nil
        }
        if let stationObject {
            guard let station = WireStation(request, object: stationObject) else { return nil }
            self.station = station
        }
    }

    /// Reads one member's value that is not an object or array; false declines the body.
    private mutating func take(_ field: Field, _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        if field != .outcome && JSONObjectReader.isNull(bytes, range) { return take(field, given: false) }
        return read(field, bytes, range) && take(field, given: true)
    }

    /// Notes a member (false when it was met before) and whether it has a value.
    private mutating func take(_ field: Field, given: Bool) -> Bool {
        let bit: UInt32 = 1 << UInt32(field.rawValue)
        guard seen & bit == 0 else { return false }
        seen |= bit
        if given { self.given |= bit }
        return true
    }

    /// Reads a value that is not `null`; false when it is not one this reader takes.
    private mutating func read(_ field: Field, _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        // A string's text between its quotes, when it has no escapes.
        var text: Range<Int>? { WireValues.plainText(bytes, range) }
        switch field {
        case .outcome:
            outcome = text.flatMap { Self.outcome(bytes, $0) }
            return outcome != nil
        case .locale:
            locale = text
            return locale != nil
        case .fuel:
            fuel = text
            return fuel != nil
        case .word:
            word = text
            return word != nil
        case .unit:
            unit = text.flatMap { text in
                WireValues.equals(bytes, text, "miles") ? .miles : WireValues.equals(bytes, text, "km") ? .km : nil
            }
            return unit != nil
        case .priceOutlier:
            priceOutlier = text.flatMap { text in
                WireValues.equals(bytes, text, "low") ? .low : WireValues.equals(bytes, text, "high") ? .high : nil
            }
            return priceOutlier != nil
        case .defaultSettings:
            defaultSettings = WireValues.equals(bytes, range, "true") ? true
                : WireValues.equals(bytes, range, "false") ? false : nil
            return defaultSettings != nil
        case .station:
            return false  // an object, read with `WireStation`
        case .now:
            now = WireValues.date(bytes, range)
            return now != nil
        case .updated:
            updated = WireValues.date(bytes, range)
            return updated != nil
        case .locationAt:
            locationAt = WireValues.date(bytes, range)
            return locationAt != nil
        case .pricePence:
            pricePence = WireValues.double(bytes, range)
            return pricePence != nil
        case .distanceMiles:
            distanceMiles = WireValues.double(bytes, range)
            return distanceMiles != nil
        case .radiusMiles:
            radiusMiles = WireValues.double(bytes, range)
            return radiusMiles != nil
        }
    }

    /// Whether every field the outcome requires has a value.
    var hasRequiredFields: Bool {
        guard let outcome else { return false }
        let required = Self.requiredMasks[outcome.index]
        return given & required == required
    }

    private static let requiredMasks: [UInt32] = {
        var masks = [UInt32](repeating: 0, count: DialogOutcome.allCases.count)
        for outcome in DialogOutcome.allCases {
            masks[outcome.index] = outcome.requiredFields.reduce(0) { mask, name in
                // A field this reader does not know can never be given: the mask can never be met.
                mask | (Field.allCases.first { $0.name == name }.map { 1 << UInt32($0.rawValue) } ?? 1 << 31)
            }
        }
        return masks
    }()

    /// The field a key names (most common first), nil for any other key.
    private static func field(_ key: JSONObjectReader.RawKey) -> Field? {
        if key.matches("outcome") { return .outcome }
        if key.matches("station") { return .station }
        if key.matches("pricePence") { return .pricePence }
        if key.matches("distanceMiles") { return .distanceMiles }
        if key.matches("updated") { return .updated }
        if key.matches("fuel") { return .fuel }
        if key.matches("now") { return .now }
        if key.matches("locale") { return .locale }
        if key.matches("unit") { return .unit }
        if key.matches("radiusMiles") { return .radiusMiles }
        if key.matches("word") { return .word }
        if key.matches("locationAt") { return .locationAt }
        if key.matches("priceOutlier") { return .priceOutlier }
        if key.matches("defaultSettings") { return .defaultSettings }
        return nil
    }

    /// The outcome a string names: the two that carry stations matched in place, the others
    /// through `DialogOutcome(rawValue:)`.
    private static func outcome(_ bytes: UnsafeBufferPointer<UInt8>, _ text: Range<Int>) -> DialogOutcome? {
        if WireValues.equals(bytes, text, "found") { return .found }
        if WireValues.equals(bytes, text, "directions") { return .directions }
        return DialogOutcome(rawValue: String(decoding: UnsafeBufferPointer(rebasing: bytes[text]), as: UTF8.self))
    }
}
