import Foundation

/// Proleptic Gregorian day arithmetic without a `Calendar` (Howard Hinnant's algorithms): fast,
/// allocation-free and the same on every machine. Used where output must be cheap (lookup
/// replies) or byte-identical everywhere (the sample-feed generator).
public enum CivilCalendar {
    /// Days since 1970-01-01 of a date.
    public static func days(fromCivil year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = floorDivide(shiftedYear, 400)
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day count since 1970-01-01.
    public static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = floorDivide(shifted, 146_097)
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// ISO-8601 in UTC to the second (`2025-10-09T09:45:17Z`), as `JSONCoding` writes dates.
    public static func iso8601(_ date: Date) -> String {
        let time = utc(date)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(time.year)-\(two(time.month))-\(two(time.day))T\(two(time.hour)):\(two(time.minute))"
            + ":\(two(time.second))Z"
    }

    /// A date's calendar date and time of day in UTC, to the second (rounded down).
    public static func utc(_ date: Date) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = floorDivide(seconds, 86_400)
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        return (year, month, day, secondOfDay / 3600, secondOfDay % 3600 / 60, secondOfDay % 60)
    }

    /// Division rounding towards minus infinity.
    public static func floorDivide(_ value: Int, _ divisor: Int) -> Int {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }

    /// The remainder of `floorDivide` (never negative for a positive divisor).
    public static func floorModulo(_ value: Int, _ divisor: Int) -> Int {
        value - floorDivide(value, divisor) * divisor
    }
    /// The instant a JSON string `"YYYY-MM-DDTHH:MM:SSZ"` at `range` (quotes included) names, when it
    /// has a Gregorian year (from 1583) and a day that exists; nil for any other text (which
    /// callers read the slow way).
    public static func utcTimestamp(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Date? {
        guard range.count == 22, bytes[range.lowerBound] == UInt8(ascii: "\""),
              bytes[range.upperBound - 1] == UInt8(ascii: "\"") else { return nil }
        let start = range.lowerBound + 1
        func number(_ offset: Int, _ count: Int) -> Int? {
            var value = 0
            for index in (start + offset)..<(start + offset + count) {
                let digit = bytes[index] &- UInt8(ascii: "0")
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
            }
            return value
        }
        func separator(_ offset: Int, _ expected: UInt8) -> Bool { bytes[start + offset] == expected }
        guard separator(4, UInt8(ascii: "-")), separator(7, UInt8(ascii: "-")), separator(10, UInt8(ascii: "T")),
              separator(13, UInt8(ascii: ":")), separator(16, UInt8(ascii: ":")), separator(19, UInt8(ascii: "Z")),
              let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
              year >= 1583, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour < 24, minute < 60, second < 60 else { return nil }
        let days = days(fromCivil: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3600 + minute * 60 + second))
    }

    /// Days in a month of the Gregorian calendar.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
