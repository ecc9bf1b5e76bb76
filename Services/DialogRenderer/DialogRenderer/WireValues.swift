import Foundation
import Messages

/// Texts, numbers and times of a body read from the wire: texts as ranges of the bytes, numbers
/// and times to exactly the values `JSONSlice` reads (the reading of `RenderRequest(json:)`), or
/// nil where that reading fails.
enum WireValues {
    /// Where the text between the quotes of the string value at `range` is, when the string is
    /// written without escapes (its text is then exactly its UTF-8); nil for any other value.
    static func plainText(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int>? {
        guard range.count >= 2, bytes[range.lowerBound] == UInt8(ascii: "\""), let base = bytes.baseAddress else {
            return nil
        }
        let text = (range.lowerBound + 1)..<(range.upperBound - 1)
        return memchr(base + text.lowerBound, Int32(UInt8(ascii: "\\")), text.count) == nil ? text : nil
    }

    /// Whether the bytes at `range` are `name`'s.
    static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ name: StaticString) -> Bool {
        guard range.count == name.utf8CodeUnitCount, let base = bytes.baseAddress else { return false }
        return memcmp(base + range.lowerBound, name.utf8Start, range.count) == 0
    }

    static func double(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double? {
        if let value = exactDecimal(bytes, range) { return value }
        return try? JSONSlice(bytes: bytes, range: range).double()
    }

    /// A number of at most 15 significant digits and 22 decimals, without an exponent: the
    /// digits as a whole number divided by a power of ten, both exact, so the quotient is the
    /// correctly rounded value (the reading `JSONObjectReader.number` makes of such a number).
    static func exactDecimal(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double? {
        guard !range.isEmpty, range.count < 64 else { return nil }
        var index = range.lowerBound
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard index < range.upperBound else { return nil }
        var mantissa: UInt64 = 0
        var digits = 0, fractionDigits = 0
        var inFraction = false
        while index < range.upperBound {
            let byte = bytes[index]
            let digit = byte &- UInt8(ascii: "0")
            if digit < 10 {
                if mantissa != 0 || digit != 0 { digits += 1 }
                guard digits <= 15 else { return nil }
                mantissa = mantissa * 10 + UInt64(digit)
                if inFraction { fractionDigits += 1 }
            } else if byte == UInt8(ascii: "."), !inFraction {
                inFraction = true
            } else {
                return nil
            }
            index += 1
        }
        guard fractionDigits < powersOfTen.count else { return nil }
        let magnitude = Double(mantissa) / powersOfTen[fractionDigits]
        return negative ? -magnitude : magnitude
    }

    private static let powersOfTen: [Double] = (0...22).map { exponent in
        (0..<exponent).reduce(1.0) { power, _ in power * 10 }
    }

    /// A time: `"2025-10-09T09:45:17Z"`, the form every service writes, read here digit by
    /// digit under the rules `JSONSlice.date()` reads it by; any other text through that.
    static func date(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Date? {
        if let date = utcSeconds(bytes, range) { return date }
        return try? JSONSlice(bytes: bytes, range: range).date()
    }

    /// `"YYYY-MM-DDTHH:MM:SSZ"` with a Gregorian year (from 1583) and a day that exists, else nil.
    static func utcSeconds(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Date? {
        CivilCalendar.utcTimestamp(bytes, range)
    }
}
