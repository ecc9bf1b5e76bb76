import Foundation
import Messages

/// UK civil time (GMT in winter, BST from 01:00 UTC on the last Sunday of March to 01:00 UTC on
/// the last Sunday of October), computed by hand so the output does not depend on the machine's
/// time-zone database.
enum UKLocalTime {
    /// A wall-clock time in the UK.
    struct WallTime: Hashable, Sendable {
        var day: Int      // days since 1970-01-01 (local calendar)
        var second: Int   // seconds since local midnight, 0..<86_400

        /// `dd/mm/yyyy HH:MM:SS`, as the CMA feeds write `last_updated`.
        var feedText: String {
            let date = CivilCalendar.civil(fromDays: day)
            return "\(pad(date.day))/\(pad(date.month))/\(date.year) "
                + "\(pad(second / 3600)):\(pad(second / 60 % 60)):\(pad(second % 60))"
        }

        private func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
    }

    static let secondsPerDay = 86_400

    /// The UK wall-clock time of an instant.
    static func wallTime(of date: Date) -> WallTime {
        let utc = Int(date.timeIntervalSince1970.rounded(.down))
        let local = utc + offsetSeconds(atUTC: utc)
        return WallTime(day: CivilCalendar.floorDivide(local, secondsPerDay), second: CivilCalendar.floorModulo(local, secondsPerDay))
    }

    /// The instant a UK wall-clock time names (the BST reading when a time is ambiguous).
    static func date(of wall: WallTime) -> Date {
        let local = wall.day * secondsPerDay + wall.second
        let summer = local - 3600
        let utc = offsetSeconds(atUTC: summer) == 3600 ? summer : local
        return Date(timeIntervalSince1970: TimeInterval(utc))
    }

    /// 3600 during British Summer Time, else 0.
    static func offsetSeconds(atUTC utc: Int) -> Int {
        let year = CivilCalendar.civil(fromDays: CivilCalendar.floorDivide(utc, secondsPerDay)).year
        let start = lastSunday(year: year, month: 3) * secondsPerDay + 3600
        let end = lastSunday(year: year, month: 10) * secondsPerDay + 3600
        return utc >= start && utc < end ? 3600 : 0
    }

    /// Days since 1970-01-01 of the last Sunday of a month.
    static func lastSunday(year: Int, month: Int) -> Int {
        let lastDay = CivilCalendar.days(fromCivil: year, month: month, day: 31)
        let weekday = CivilCalendar.floorModulo(lastDay + 4, 7) // 1970-01-01 was a Thursday; 0 is Sunday
        return lastDay - weekday
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
}

/// When a retailer publishes: one or more times of day (UK local), each with a few seconds of drift.
struct PublishSchedule: Sendable {
    /// Seconds after local midnight.
    var times: [Int]
    /// Up to this many seconds are added to each time (the same for every time of one feed).
    var driftSeconds: Int

    static func daily(_ hour: Int, _ minute: Int, _ second: Int = 0, drift: Int = 0) -> PublishSchedule {
        PublishSchedule(times: [hour * 3600 + minute * 60 + second], driftSeconds: drift)
    }

    /// The most recent publication at or before `asOf`.
    func lastPublication(asOf: Date, drift: Int) -> UKLocalTime.WallTime {
        let now = UKLocalTime.wallTime(of: asOf)
        let today = times.map { min($0 + drift, UKLocalTime.secondsPerDay - 1) }.sorted()
        if let latest = today.last(where: { $0 <= now.second }) {
            return UKLocalTime.WallTime(day: now.day, second: latest)
        }
        return UKLocalTime.WallTime(day: now.day - 1, second: today.last ?? 0)
    }
}
