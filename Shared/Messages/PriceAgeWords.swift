import Foundation

/// How old prices are, in the English words dialog-renderer's en-GB templates use ("as of
/// 6:30 AM", "as of yesterday at noon", "as of 25 Nov at 9:05 PM"), on the feeds' own clock
/// (Europe/London): for the router's built-in English when the renderer is down, and for intent
/// services that speak prices themselves (a price is never said without its age).
public enum PriceAgeWords {
    /// Past this age an answer also says "These prices may be out of date."
    public static let staleAfter: TimeInterval = 48 * 3600

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/London") ?? TimeZone(secondsFromGMT: 0) ?? .current
        return calendar
    }()

    /// "as of 6:30 AM": the feed's own time, never clamped to `now` (a feed from a clock ahead of
    /// ours still says when it was published).
    public static func phrase(_ updated: Date, now: Date) -> String {
        let time = clockTime(updated)
        switch daysBack(updated, now: now) {
        case 0: return "as of \(time)"
        case 1: return "as of yesterday at \(time)"
        default: return "as of \(date(updated, now: now)) at \(time)"
        }
    }

    /// Where the search was made from, as the renderer's en-GB `place` texts say it: "you" for the
    /// ask's own location or a stored one under an hour old, else "where you were 3 hours ago"
    /// (hours below a day), "where you were yesterday" or "where you were on 25 Nov".
    public static func place(observedAt: Date?, now: Date) -> String {
        guard let observedAt, now.timeIntervalSince(observedAt) >= 3600 else { return "you" }
        let age = now.timeIntervalSince(observedAt)
        let days = daysBack(observedAt, now: now)
        if age < 24 * 3600 || days == 0 {
            let hours = min(Int(age / 3600), 24)
            return hours == 1 ? "where you were an hour ago" : "where you were \(hours) hours ago"
        }
        return days == 1 ? "where you were yesterday" : "where you were on \(date(observedAt, now: now))"
    }

    /// Calendar days from `date` to `now` (0: the same day).
    private static func daysBack(_ date: Date, now: Date) -> Int {
        let days = calendar.dateComponents([.day], from: calendar.startOfDay(for: date),
                                           to: calendar.startOfDay(for: now))
        return days.day ?? 0
    }

    /// "25 Nov", with the year only when the date is far from now, as the renderer does.
    private static func date(_ date: Date, now: Date) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        let month = months[((parts.month ?? 1) - 1 + 12) % 12]
        let year = abs(now.timeIntervalSince(date)) > 180 * 86_400 ? " \(parts.year ?? 0)" : ""
        return "\(parts.day ?? 1) \(month)\(year)"
    }

    public static func isStale(_ updated: Date, now: Date) -> Bool {
        now.timeIntervalSince(updated) > staleAfter
    }

    /// "6:30 AM", "midnight", "noon".
    public static func clockTime(_ date: Date) -> String {
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        let hour = parts.hour ?? 0, minute = parts.minute ?? 0
        if minute == 0, hour == 0 { return "midnight" }
        if minute == 0, hour == 12 { return "noon" }
        let twelve = hour % 12 == 0 ? 12 : hour % 12
        return "\(twelve):\(minute < 10 ? "0" : "")\(minute) \(hour < 12 ? "AM" : "PM")"
    }
}
