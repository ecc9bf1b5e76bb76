import Foundation

/// How old the user's stored location is, as an answer made from it says: nothing under an hour
/// ("near you"), else in hours below a day, then "yesterday" or the date on the Europe/London
/// calendar (the user may have moved since).
enum LocationAge: Equatable {
    /// Under an hour old, the ask's own location, or observed after `now`.
    case current
    /// Whole hours old, 1...23 (24 on the day the clocks go back).
    case hours(Int)
    case yesterday
    /// An earlier date; `showYear` as for a feed's date (`FeedAge`).
    case earlier(day: Int, month: Int, year: Int, showYear: Bool)

    /// Locations at least this old are said to be from then.
    static let statedAfter: TimeInterval = 3600

    /// The age of a location observed `at` (nil: not a stored one), at `now`, read on `clock`.
    init(at: Date?, now: Date, clock: LocalClock) {
        guard let at else { self = .current; return }
        let age = now.timeIntervalSince(at)
        guard age >= Self.statedAfter else { self = .current; return }
        guard age >= 24 * 3600 else { self = .hours(Int(age / 3600)); return }
        switch FeedAge(updated: at, now: now, clock: clock).day {
        case .today: self = .hours(24)  // a day ago, still today: the 25 hours of the autumn change
        case .yesterday: self = .yesterday
        case .earlier(let day, let month, let year, let showYear):
            self = .earlier(day: day, month: month, year: year, showYear: showYear)
        }
    }
}
