import Foundation
import Messages

/// A calendar's date and clock time of an instant, as `Calendar.dateComponents` gives them, but
/// for a Gregorian calendar worked out from the zone's offset with integer arithmetic (about a
/// tenth of the cost). Instants the arithmetic might read differently from the calendar go to it.
/// A class, so that renders share one without copying its calendar, zone and tables.
final class LocalClock: Sendable {
    /// The date and clock time of one instant.
    struct Reading: Equatable {
        /// Days from 1970-01-01 to the local date (the same count for every calendar date).
        let dayNumber: Int
        let year: Int
        let month: Int
        let day: Int
        let hour: Int
        let minute: Int
    }

    let calendar: Calendar
    private let zone: TimeZone
    /// The zone's offsets over `fastRange` (nil: the zone is asked each time).
    private let offsets: ZoneOffsets?
    /// The arithmetic agrees with the calendar: Gregorian, and only between these instants (UTC
    /// seconds), well inside the proleptic Gregorian years it shares with the calendar.
    private let arithmetic: Bool
    static let fastRange: Range<Double> = -2_208_988_800 ..< 7_258_118_400  // 1900-01-01 ..< 2200-01-01
    /// Instants this close to a whole second go to the calendar: adding the offset to them could
    /// round them across the second (and the zone may read them in milliseconds, rounded).
    static let secondEdge = 1e-5

    /// A clock for `calendar`; `tabulated`, it reads the zone's offsets into a table first
    /// (some milliseconds, for a clock that reads many instants).
    init(calendar: Calendar, tabulated: Bool = true) {
        self.calendar = calendar
        zone = calendar.timeZone
        arithmetic = calendar.identifier == .gregorian
        offsets = arithmetic && tabulated ? ZoneOffsets(zone: zone, over: Self.fastRange) : nil
    }

    func reading(_ date: Date) -> Reading {
        if arithmetic, let local = localSeconds(date) {
            let dayNumber = CivilCalendar.floorDivide(local, 86_400)
            let secondOfDay = local - dayNumber * 86_400
            let date = CivilCalendar.civil(fromDays: dayNumber)
            return Reading(dayNumber: dayNumber, year: date.year, month: date.month, day: date.day,
                           hour: secondOfDay / 3600, minute: secondOfDay % 3600 / 60)
        }
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        let year = parts.year ?? 1970, month = parts.month ?? 1, day = parts.day ?? 1
        return Reading(dayNumber: CivilCalendar.days(fromCivil: year, month: month, day: day), year: year,
                       month: month, day: day, hour: parts.hour ?? 0, minute: parts.minute ?? 0)
    }

    /// `reading(date).dayNumber`, with no more work than that takes.
    func dayNumber(_ date: Date) -> Int {
        guard arithmetic, let local = localSeconds(date) else { return reading(date).dayNumber }
        return CivilCalendar.floorDivide(local, 86_400)
    }

    /// The local time as seconds from 1970-01-01T00:00 local, or nil for an instant left to the
    /// calendar (outside `fastRange`, or too near a whole second).
    ///
    /// Read as the Gregorian calendar reads it: the zone's offset added to the seconds from 2001
    /// (what a `Date` holds), rounded down. Off the edges of a second, that is the whole seconds
    /// plus the offset, and the offset is the one at the whole second (zones change on them).
    private func localSeconds(_ date: Date) -> Int? {
        let seconds = date.timeIntervalSinceReferenceDate
        guard Self.fastRange.contains(seconds + Self.referenceFrom1970) else { return nil }
        let whole = seconds.rounded(.down)
        let fraction = seconds - whole
        guard fraction == 0 || (fraction > Self.secondEdge && fraction < 1 - Self.secondEdge) else { return nil }
        let utc = Int(whole) + Int(Self.referenceFrom1970)
        return utc + (offsets?.offset(at: utc) ?? zone.secondsFromGMT(for: date))
    }

    /// Seconds from 1970-01-01 to 2001-01-01 (`Date`'s reference date).
    private static let referenceFrom1970 = Date.timeIntervalBetween1970AndReferenceDate
}

/// A time zone's offsets from UTC over a span of instants, read from the zone once (its
/// transitions, each checked against the zone): a lookup is a table read and a step or two,
/// where asking the zone takes a lock and a calendar computation.
struct ZoneOffsets: Sendable {
    /// `offsets[i]` holds from `starts[i]` (UTC seconds) until the next start.
    private let starts: [Int]
    private let offsets: [Int]
    /// For each stretch of 2^22 seconds (48 days) from the span's start, the last change at or
    /// before the stretch's start: a lookup steps on from there past the changes within it.
    private let firstChange: [Int32]
    private static let stretchShift = 22
    let span: Range<Int>

    /// Nil when the zone's transitions do not account for its offsets (the zone is asked then).
    init?(zone: TimeZone, over span: Range<Double>) {
        let first = Int(span.lowerBound), end = Int(span.upperBound)
        func offset(_ second: Int) -> Int { zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(second))) }
        var starts = [first], offsets = [offset(first)]
        var after = Date(timeIntervalSince1970: span.lowerBound)
        while let next = zone.nextDaylightSavingTimeTransition(after: after),
              next.timeIntervalSince1970 < span.upperBound {
            let second = next.timeIntervalSince1970
            guard second > after.timeIntervalSince1970, second == second.rounded(.down), starts.count < 10_000
            else { return nil }
            let changed = offset(Int(second))
            if changed != offsets[offsets.count - 1] {
                starts.append(Int(second))
                offsets.append(changed)
            }
            after = next
        }
        // Each stretch has its offset at its start, middle and last second.
        for index in starts.indices {
            let last = (index + 1 < starts.count ? starts[index + 1] : end) - 1
            for second in [starts[index], (starts[index] + last) / 2, last] where offset(second) != offsets[index] {
                return nil
            }
        }
        var firstChange: [Int32] = []
        var change = 0
        for stretchStart in stride(from: first, to: end, by: 1 << Self.stretchShift) {
            while change + 1 < starts.count, starts[change + 1] <= stretchStart { change += 1 }
            firstChange.append(Int32(change))
        }
        self.starts = starts
        self.offsets = offsets
        self.firstChange = firstChange
        self.span = first..<end
    }

    /// The offset at a UTC second (nil outside `span`).
    func offset(at second: Int) -> Int? {
        guard span.contains(second) else { return nil }
        var index = Int(firstChange[(second - span.lowerBound) >> Self.stretchShift])
        while index + 1 < starts.count, starts[index + 1] <= second { index += 1 }
        return offsets[index]
    }
}
