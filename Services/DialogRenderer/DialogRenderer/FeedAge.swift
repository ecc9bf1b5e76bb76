import Foundation

/// How old a price is, on the Europe/London calendar: the day it is labelled with, its clock
/// time there, and whether it is stale.
public struct FeedAge: Sendable, Equatable {
    public enum Day: Sendable, Equatable {
        case today
        case yesterday
        /// An earlier date; `showYear` when it is far enough back that "3 Oct" would mislead.
        case earlier(day: Int, month: Int, year: Int, showYear: Bool)
    }

    /// Prices older than this get the out-of-date note and `stale: true`.
    public static let staleAfter: TimeInterval = 48 * 3600
    /// Dates older than this are spoken with their year.
    public static let yearAfter: TimeInterval = 180 * 86400

    public let day: Day
    /// 0...23, in Europe/London.
    public let hour: Int
    public let minute: Int
    public let stale: Bool

    /// The age of a feed time at `now`, in `calendar`'s time zone. A feed time in the future
    /// counts as `now` (a clock skew must never produce "tomorrow" or a negative age).
    public init(updated: Date, now: Date, calendar: Calendar) {
        let effective = min(updated, now)
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: effective)
        let today = calendar.dateComponents([.year, .month, .day], from: now)
        let daysBack = Self.dayNumber(today) - Self.dayNumber(parts)
        let age = now.timeIntervalSince(effective)
        switch daysBack {
        case ...0: day = .today
        case 1: day = .yesterday
        default: day = .earlier(day: parts.day ?? 1, month: parts.month ?? 1, year: parts.year ?? 1970,
                                showYear: age > Self.yearAfter)
        }
        hour = parts.hour ?? 0
        minute = parts.minute ?? 0
        stale = age > Self.staleAfter
    }

    /// A calendar-independent day count for a year/month/day (days from civil, proleptic Gregorian).
    static func dayNumber(_ parts: DateComponents) -> Int {
        let month = parts.month ?? 1, day = parts.day ?? 1
        let year = (parts.year ?? 1970) - (month <= 2 ? 1 : 0)
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra
    }

    /// A Gregorian calendar in Europe/London, or nil when the system lacks that time zone.
    public static func londonCalendar() -> Calendar? {
        guard let zone = TimeZone(identifier: "Europe/London") else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }
}
