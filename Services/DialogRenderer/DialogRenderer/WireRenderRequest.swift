import Foundation
import Messages

/// A `dialog.render` body read in place from request bytes `StrictJSON` has checked: where its
/// texts are and what its numbers and times are, with no `String` made.
///
/// It reads the bodies the router sends: each known key once, written without escapes, strings
/// without escapes, no other keys. Anything else is declined (`take` returns false) and the
/// request goes through `RenderRequest`, whose reader and checks give the reply or the error.
/// What it accepts, it reads to the values `RenderRequest(json:)` reads.
struct WireRenderRequest {
    /// The body's fields, one bit each.
    enum Field: Int, CaseIterable {
        case outcome, locale, now, fuel, station, pricePence, distanceMiles, updated, radiusMiles, unit, word

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
            }
        }
    }

    let bytes: UnsafeBufferPointer<UInt8>
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

    /// Reads the body object at `range` of checked JSON `bytes`; nil declines it.
    init?(bytes: UnsafeBufferPointer<UInt8>, body range: Range<Int>) {
        self.bytes = bytes
        let end = range.upperBound
        var index = CheckedJSONScan.skipWhitespace(bytes, range.lowerBound, end)
        guard index < end, bytes[index] == UInt8(ascii: "{") else { return nil }
        index += 1
        while true {
            index = CheckedJSONScan.skipWhitespace(bytes, index, end)
            guard index < end else { return nil }
            if bytes[index] == UInt8(ascii: "}") { return }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard let key = CheckedJSONScan.key(bytes, at: index, end), let field = Self.field(bytes, key.text) else {
                return nil
            }
            let valueStart = key.valueStart
            guard valueStart < end else { return nil }
            let valueEnd: Int
            var text: Range<Int>?  // a string's text between its quotes, when it has no escapes
            switch bytes[valueStart] {
            case UInt8(ascii: "\""):
                let string = CheckedJSONScan.endOfString(bytes, valueStart, end)
                valueEnd = string.end
                if !string.hasEscape { text = (valueStart + 1)..<(valueEnd - 1) }
            case UInt8(ascii: "{"):
                guard field == .station, let read = WireStation.read(bytes, at: valueStart, end) else { return nil }
                station = read.station
                index = read.end
                guard take(.station, given: true) else { return nil }
                continue
            case UInt8(ascii: "["):
                return nil
            default:
                valueEnd = CheckedJSONScan.endOfNumber(bytes, valueStart, end)
            }
            guard take(field, valueStart..<valueEnd, text: text) else { return nil }
            index = valueEnd
        }
    }

    /// Reads one member's value (`text`: a string's, when it has no escapes); false declines the body.
    private mutating func take(_ field: Field, _ range: Range<Int>, text: Range<Int>?) -> Bool {
        if field != .outcome && JSONObjectReader.isNull(bytes, range) { return take(field, given: false) }
        return read(field, range, text: text) && take(field, given: true)
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
    private mutating func read(_ field: Field, _ range: Range<Int>, text: Range<Int>?) -> Bool {
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
                CheckedJSONScan.equals(bytes, text, "miles") ? .miles
                    : CheckedJSONScan.equals(bytes, text, "km") ? .km : nil
            }
            return unit != nil
        case .station:
            return false  // an object, read where it starts
        case .now:
            now = WireValues.date(bytes, range)
            return now != nil
        case .updated:
            updated = WireValues.date(bytes, range)
            return updated != nil
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

    private static func field(_ bytes: UnsafeBufferPointer<UInt8>, _ key: Range<Int>) -> Field? {
        func named(_ name: StaticString, _ field: Field) -> Field? {
            CheckedJSONScan.equals(bytes, key, name) ? field : nil
        }
        switch key.count {
        case 3: return named("now", .now)
        case 4: return named("fuel", .fuel) ?? named("unit", .unit) ?? named("word", .word)
        case 6: return named("locale", .locale)
        case 7: return named("outcome", .outcome) ?? named("station", .station) ?? named("updated", .updated)
        case 10: return named("pricePence", .pricePence)
        case 11: return named("radiusMiles", .radiusMiles)
        case 13: return named("distanceMiles", .distanceMiles)
        default: return nil
        }
    }

    /// The outcome a string names: the two that carry stations matched in place, the others
    /// through `DialogOutcome(rawValue:)`.
    private static func outcome(_ bytes: UnsafeBufferPointer<UInt8>, _ text: Range<Int>) -> DialogOutcome? {
        if CheckedJSONScan.equals(bytes, text, "found") { return .found }
        if CheckedJSONScan.equals(bytes, text, "directions") { return .directions }
        return DialogOutcome(rawValue: String(decoding: UnsafeBufferPointer(rebasing: bytes[text]), as: UTF8.self))
    }
}
