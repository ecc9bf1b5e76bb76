import Foundation

/// How old a price is, on the Europe/London calendar: the day it is labelled with, its clock
/// time there, and whether it is stale.
public struct FeedAge: Sendable, Equatable {
    public enum Day: Sendable, Equatable {
        case today
        case yesterday
        /// Another date (earlier, or later for a feed dated ahead of `now`); `showYear` when it is
        /// far enough away that "3 Oct" would mislead.
        case earlier(day: Int, month: Int, year: Int, showYear: Bool)
    }

    /// Prices older than this get the out-of-date note and `stale: true`.
    public static let staleAfter: TimeInterval = 48 * 3600
    /// Dates further than this from `now` are spoken with their year.
    public static let yearAfter: TimeInterval = 180 * 86400

    public let day: Day
    /// 0...23, in Europe/London.
    public let hour: Int
    public let minute: Int
    public let stale: Bool

    /// The age of a feed time at `now`, in `calendar`'s time zone. The label is always the feed's
    /// own time, also when it is later than `now` (a clock behind the feed's): later the same day
    /// it is today, on a later day it gives its date (never "tomorrow"), and it is never stale.
    public init(updated: Date, now: Date, calendar: Calendar) {
        self.init(updated: updated, now: now, clock: LocalClock(calendar: calendar, tabulated: false))
    }

    /// The same, read on `clock` (made once for many ages).
    init(updated: Date, now: Date, clock: LocalClock) {
        let parts = clock.reading(updated)
        let daysBack = clock.dayNumber(now) - parts.dayNumber
        let age = now.timeIntervalSince(updated)
        switch daysBack {
        case 0: day = .today
        case 1: day = .yesterday
        default: day = .earlier(day: parts.day, month: parts.month, year: parts.year,
                                showYear: abs(age) > Self.yearAfter)
        }
        hour = parts.hour
        minute = parts.minute
        stale = age > Self.staleAfter
    }

    /// A Gregorian calendar in Europe/London, or nil when the system lacks that time zone.
    public static func londonCalendar() -> Calendar? {
        guard let zone = TimeZone(identifier: "Europe/London") else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar
    }
}
