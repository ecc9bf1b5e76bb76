@testable import DialogRenderer
import Foundation
import Messages
import SampleFeeds
import Testing

/// The arithmetic London clock against `Calendar.dateComponents`, which it stands in for: the
/// same date and time for every instant, across clock changes, midnights and fractions of a second.
struct LocalClockTests {
    private static func calendar(_ zone: String, _ identifier: Calendar.Identifier = .gregorian) throws -> Calendar {
        var calendar = Calendar(identifier: identifier)
        calendar.timeZone = try #require(TimeZone(identifier: zone))
        return calendar
    }

    /// What `FeedAge` used to read from the calendar, as a `Reading`.
    private static func expected(_ date: Date, _ calendar: Calendar) -> LocalClock.Reading {
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        let year = parts.year ?? 0, month = parts.month ?? 0, day = parts.day ?? 0
        return LocalClock.Reading(dayNumber: CivilCalendar.days(fromCivil: year, month: month, day: day), year: year,
                                  month: month, day: day, hour: parts.hour ?? -1, minute: parts.minute ?? -1)
    }

    /// Every instant `around` each of the zone's transitions from 1900 to 2200.
    private static func transitionInstants(_ zone: TimeZone, around offsets: [Double]) -> [Date] {
        var instants: [Date] = []
        var after = Date(timeIntervalSince1970: LocalClock.fastRange.lowerBound)
        while let next = zone.nextDaylightSavingTimeTransition(after: after),
              next.timeIntervalSince1970 < LocalClock.fastRange.upperBound {
            instants += offsets.map { next.addingTimeInterval($0) }
            after = next
        }
        return instants
    }

    private static let edges: [Double] = [-86_400, -3601, -3600, -3599, -61, -60, -1, -0.5, 0, 0.5, 1, 59, 60,
                                          3599, 3600, 3601, 7200, 86_399, 86_400]

    @Test(arguments: ["Europe/London", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "UTC"])
    func reading_aroundEveryClockChange_isTheCalendars(zone: String) throws {
        let calendar = try Self.calendar(zone)
        let clock = LocalClock(calendar: calendar)
        let instants = Self.transitionInstants(calendar.timeZone, around: Self.edges)
        #expect(zone == "UTC" || zone == "Asia/Kolkata" || instants.count > 1000)
        for date in instants {
            #expect(clock.reading(date) == Self.expected(date, calendar), "\(zone) \(date)")
        }
    }

    @Test(arguments: ["Europe/London", "America/New_York", "Australia/Lord_Howe"])
    func reading_atRandomInstants_isTheCalendars(zone: String) throws {
        let calendar = try Self.calendar(zone)
        let clock = LocalClock(calendar: calendar)
        var generator = SplitMix64(seed: 42)
        for _ in 0..<20_000 {
            let seconds = Double(generator.next(in: -2_300_000_000 ... 7_400_000_000))
            let fraction = Double(generator.next(in: 0 ... 999_999)) / 1_000_000
            let date = Date(timeIntervalSince1970: seconds + fraction)
            #expect(clock.reading(date) == Self.expected(date, calendar), "\(zone) \(date.timeIntervalSince1970)")
        }
    }

    @Test func reading_justBeforeAndAfterWholeSeconds_isTheCalendars() throws {
        let calendar = try Self.calendar("Europe/London")
        let clock = LocalClock(calendar: calendar)
        // Midnights, hours and the clock changes of 2025, approached by the smallest steps a Date has.
        let wholeSeconds: [Double] = [1_759_964_400, 1_759_967_999, 1_759_968_000, 1_761_440_400, 1_743_296_400,
                                      1_760_000_000, 1_759_989_659]
        for whole in wholeSeconds {
            var below = Date(timeIntervalSince1970: whole), above = below
            for _ in 0..<40 {
                for date in [below, above] {
                    #expect(clock.reading(date) == Self.expected(date, calendar),
                            "\(date.timeIntervalSinceReferenceDate)")
                }
                below = Date(timeIntervalSinceReferenceDate: below.timeIntervalSinceReferenceDate.nextDown)
                above = Date(timeIntervalSinceReferenceDate: above.timeIntervalSinceReferenceDate.nextUp)
            }
            for step in [1e-7, 1e-6, 1e-5, 1e-4, 1e-3] {
                for date in [Date(timeIntervalSince1970: whole - step), Date(timeIntervalSince1970: whole + step)] {
                    #expect(clock.reading(date) == Self.expected(date, calendar), "\(date.timeIntervalSince1970)")
                }
            }
        }
    }

    @Test func reading_outsideTheArithmeticsYears_isTheCalendars() throws {
        let calendar = try Self.calendar("Europe/London")
        let clock = LocalClock(calendar: calendar)
        for seconds in [-12_219_292_801.0, -10_000_000_000, -2_208_988_801, 7_258_118_400, 8e9, 253_402_300_799] {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(clock.reading(date) == Self.expected(date, calendar), "\(seconds)")
        }
    }

    @Test func reading_onAnotherCalendar_isThatCalendars() throws {
        let calendar = try Self.calendar("Europe/London", .buddhist)
        let clock = LocalClock(calendar: calendar)
        let date = try Fixtures.time("2025-10-09T06:30:00+01:00")
        #expect(clock.reading(date) == Self.expected(date, calendar))
        #expect(clock.reading(date).year == 2568)
    }

    @Test func dayNumber_isTheReadingsDay() throws {
        let clock = LocalClock(calendar: try Self.calendar("Europe/London"))
        var generator = SplitMix64(seed: 7)
        for _ in 0..<2000 {
            let date = Date(timeIntervalSince1970: Double(generator.next(in: 0 ... 4_000_000_000)) + 0.25)
            #expect(clock.dayNumber(date) == clock.reading(date).dayNumber)
        }
    }

    @Test func withoutTheTable_readingsAreTheSame() throws {
        let calendar = try Self.calendar("Europe/London")
        let tabulated = LocalClock(calendar: calendar), asking = LocalClock(calendar: calendar, tabulated: false)
        for date in Self.transitionInstants(calendar.timeZone, around: [-1, 0, 1]).prefix(300) {
            #expect(tabulated.reading(date) == asking.reading(date))
        }
    }

    @Test func zoneOffsets_areTheZonesAtEverySecondTested() throws {
        let zone = try #require(TimeZone(identifier: "Europe/London"))
        let offsets = try #require(ZoneOffsets(zone: zone, over: LocalClock.fastRange))
        var generator = SplitMix64(seed: 3)
        for _ in 0..<20_000 {
            let span = LocalClock.fastRange
            let second = generator.next(in: Int(span.lowerBound) ... Int(span.upperBound) - 1)
            #expect(offsets.offset(at: second) == zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(second))))
        }
        #expect(offsets.offset(at: Int(LocalClock.fastRange.upperBound)) == nil)
    }
}

/// Draws from `range` as the tests always have (seeded, so a failure names an instant that fails again).
extension SplitMix64 {
    mutating func next(in range: ClosedRange<Int>) -> Int {
        let span = UInt64(range.upperBound - range.lowerBound) + 1
        return range.lowerBound + Int(next() % span)
    }
}
