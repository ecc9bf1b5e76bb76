import Foundation
import Messages

/// Numbers and times of a body read from the wire, to exactly the values `JSONSlice` reads
/// (the reading of `RenderRequest(json:)`), or nil where that reading fails.
enum WireValues {
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
        guard range.count == 22, bytes[range.lowerBound] == UInt8(ascii: "\"") else { return nil }
        let start = range.lowerBound + 1
        var valid = true
        func number(_ offset: Int, _ count: Int) -> Int {
            var value = 0
            for index in (start + offset)..<(start + offset + count) {
                let digit = bytes[index] &- UInt8(ascii: "0")
                if digit >= 10 { valid = false }
                value = value * 10 + Int(digit)
            }
            return value
        }
        func separator(_ offset: Int, _ expected: UInt8) {
            if bytes[start + offset] != expected { valid = false }
        }
        separator(4, UInt8(ascii: "-"))
        separator(7, UInt8(ascii: "-"))
        separator(10, UInt8(ascii: "T"))
        separator(13, UInt8(ascii: ":"))
        separator(16, UInt8(ascii: ":"))
        separator(19, UInt8(ascii: "Z"))
        let year = number(0, 4), month = number(5, 2), day = number(8, 2)
        let hour = number(11, 2), minute = number(14, 2), second = number(17, 2)
        guard valid, year >= 1583, (1...12).contains(month), day >= 1, day <= daysIn(month, year),
              hour < 24, minute < 60, second < 60 else { return nil }
        let days = CivilCalendar.days(fromCivil: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3600 + minute * 60 + second))
    }

    private static func daysIn(_ month: Int, _ year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
