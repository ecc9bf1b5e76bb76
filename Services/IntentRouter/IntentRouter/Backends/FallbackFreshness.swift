import Foundation
import Messages

/// How old prices are, in the built-in English words dialog-renderer's en-GB templates use
/// ("as of 6:30 AM", "as of yesterday at noon", "as of 25 Nov at 9:05 PM"), on the feeds' own
/// clock (Europe/London), so an answer spoken without the renderer still says it.
enum FallbackFreshness {
    /// Past this age an answer also says "These prices may be out of date."
    static let staleAfter: TimeInterval = 48 * 3600

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/London") ?? TimeZone(secondsFromGMT: 0) ?? .current
        return calendar
    }()

    /// "as of 6:30 AM": the feed's own time, never clamped to `now` (a feed from a clock ahead of
    /// ours still says when it was published).
    static func phrase(_ updated: Date, now: Date) -> String {
        let time = clockTime(updated)
        let day = calendar.dateComponents([.day], from: calendar.startOfDay(for: updated),
                                          to: calendar.startOfDay(for: now)).day ?? 0
        switch day {
        case 0: return "as of \(time)"
        case 1: return "as of yesterday at \(time)"
        default:
            let parts = calendar.dateComponents([.year, .month, .day], from: updated)
            let month = months[((parts.month ?? 1) - 1 + 12) % 12]
            // The year only when the date is far from now, as the renderer does.
            let year = abs(now.timeIntervalSince(updated)) > 180 * 86_400 ? " \(parts.year ?? 0)" : ""
            return "as of \(parts.day ?? 1) \(month)\(year) at \(time)"
        }
    }

    static func isStale(_ updated: Date, now: Date) -> Bool {
        now.timeIntervalSince(updated) > staleAfter
    }

    /// "6:30 AM", "midnight", "noon".
    static func clockTime(_ date: Date) -> String {
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        let hour = parts.hour ?? 0, minute = parts.minute ?? 0
        if minute == 0, hour == 0 { return "midnight" }
        if minute == 0, hour == 12 { return "noon" }
        let twelve = hour % 12 == 0 ? 12 : hour % 12
        return "\(twelve):\(minute < 10 ? "0" : "")\(minute) \(hour < 12 ? "AM" : "PM")"
    }
}
