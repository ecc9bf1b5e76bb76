import Foundation
import Messages

/// Reads the CMA `last_updated` text: `d/m/Y H:M:S`, day first, UK local time.
///
/// Day, month, hour, minute and second may have one or two digits, the seconds may be left out and
/// the date may use `/` or `-` (`22/08/2026 9:58:35`, `25-04-2024 10:45:32`, `09/10/2025 10:45`).
/// Month-first (US) order is never tried. A time followed by `BST`, `GMT`, `UTC` or `Z` is read at
/// that offset, and ISO 8601 with an offset (`2025-10-09T10:45:17+01:00`) as written. Otherwise the
/// wall-clock time is read in Europe/London:
/// - in the autumn hour that happens twice (01:00-01:59 on the last Sunday of October) the first
///   occurrence is taken, in BST (the earlier instant; a feed then looks up to an hour older, never newer);
/// - in the spring hour that does not exist (01:00-01:59 on the last Sunday of March) the time is read
///   in GMT, the offset in force just before the clocks went forward (01:30 -> 01:30Z, i.e. 02:30 BST).
public enum FeedTimestamp {
    /// The UK time zone; UTC only if the system has no zone data (then BST is not applied).
    static let london: TimeZone = TimeZone(identifier: "Europe/London") ?? TimeZone(secondsFromGMT: 0) ?? .current

    /// The instant `text` names, or nil when it is not a valid `d/m/Y H:M:S` date and time.
    public static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.count <= 40 else { return nil }
        if trimmed.contains("T"), let date = JSONCoding.parseISO8601(trimmed) { return date }
        var words = trimmed.split(separator: " ", omittingEmptySubsequences: true)
        let zone = words.count == 3 ? zoneOffsets[words[2].uppercased()] : nil
        if zone != nil { words.removeLast() }
        guard let fields = fields(of: words) else { return nil }
        if let zone {
            return wallClockAsUTC(year: fields[2], month: fields[1], day: fields[0], hour: fields[3],
                                  minute: fields[4], second: fields[5]).addingTimeInterval(-TimeInterval(zone))
        }
        return londonDate(year: fields[2], month: fields[1], day: fields[0],
                          hour: fields[3], minute: fields[4], second: fields[5])
    }

    /// Seconds east of UTC of the zone words a time may end with.
    private static let zoneOffsets: [String: Int] = ["BST": 3_600, "GMT": 0, "UTC": 0, "Z": 0]

    /// `date` as the CMA writes it, `dd/mm/yyyy HH:MM:SS` in UK local time (what `parse` reads back,
    /// except in the repeated autumn hour, read back as its first occurrence).
    public static func text(_ date: Date) -> String {
        let offset = london.secondsFromGMT(for: date)
        let local = CivilCalendar.utc(date.addingTimeInterval(TimeInterval(offset)))
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(two(local.day))/\(two(local.month))/\(local.year) "
            + "\(two(local.hour)):\(two(local.minute)):\(two(local.second))"
    }

    /// `[day, month, year, hour, minute, second]` from a date and a time, range-checked, or nil.
    private static func fields(of halves: [Substring]) -> [Int]? {
        guard halves.count == 2 else { return nil }
        let date = halves[0], time = halves[1]
        let separator: Character = date.contains("/") ? "/" : "-"
        let dateParts = date.split(separator: separator, omittingEmptySubsequences: false)
        let timeParts = time.split(separator: ":", omittingEmptySubsequences: false)
        guard dateParts.count == 3, timeParts.count == 2 || timeParts.count == 3,
              let day = number(dateParts[0], digits: 1...2), let month = number(dateParts[1], digits: 1...2),
              let year = number(dateParts[2], digits: 4...4), let hour = number(timeParts[0], digits: 1...2),
              let minute = number(timeParts[1], digits: 1...2),
              let second = timeParts.count == 3 ? number(timeParts[2], digits: 1...2) : 0,
              (1...12).contains(month), (1...CivilCalendar.daysIn(month: month, year: year)).contains(day),
              (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else { return nil }
        return [day, month, year, hour, minute, second]
    }

    private static func number(_ text: Substring, digits: ClosedRange<Int>) -> Int? {
        guard digits.contains(text.count), text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    /// The instant at which London clocks showed this wall-clock time (see the type's note on the
    /// repeated and missing hours).
    static func londonDate(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Date {
        let wallClockAsUTC = wallClockAsUTC(year: year, month: month, day: day, hour: hour, minute: minute,
                                            second: second)
        // The offsets in force a day either side cover every UK transition (they are months apart).
        let before = london.secondsFromGMT(for: wallClockAsUTC.addingTimeInterval(-86_400))
        let after = london.secondsFromGMT(for: wallClockAsUTC.addingTimeInterval(86_400))
        let candidates = Set([before, after]).map { offset in
            (offset: offset, instant: wallClockAsUTC.addingTimeInterval(-TimeInterval(offset)))
        }
        let consistent = candidates.filter { london.secondsFromGMT(for: $0.instant) == $0.offset }
        if let earliest = consistent.min(by: { $0.instant < $1.instant }) {
            return earliest.instant
        }
        return wallClockAsUTC.addingTimeInterval(-TimeInterval(before))
    }

    /// The instant a clock on UTC shows this wall-clock time (a zone's time is this less its offset).
    private static func wallClockAsUTC(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Date {
        Date(timeIntervalSince1970: TimeInterval(
            daysSinceEpoch(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second))
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (civil-from-days inverse).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
