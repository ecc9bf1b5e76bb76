import DialogRenderer
import Foundation
import Messages
import Testing

/// "as of ..." labels on the Europe/London calendar, across midnight and clock changes.
struct FreshnessTests {
    /// The snippet's freshness label for a feed time seen at `now`.
    private func label(updated: String, now: String) throws -> String? {
        try Fixtures.render(Fixtures.stationRequest(updated: updated, now: now)).snippet?.freshness
    }

    private func stale(updated: String, now: String) throws -> Bool? {
        try Fixtures.render(Fixtures.stationRequest(updated: updated, now: now)).snippet?.stale
    }

    @Test(arguments: [
        // BST (UTC+1): a UTC reading would give 5:30 AM.
        ("2025-10-09T06:30:00+01:00", "2025-10-09T12:00:00+01:00", "prices as of 6:30 AM"),
        ("2025-10-09T05:30:00Z", "2025-10-09T12:00:00+01:00", "prices as of 6:30 AM"),
        // GMT (UTC+0).
        ("2025-12-03T06:30:00Z", "2025-12-03T15:00:00Z", "prices as of 6:30 AM"),
        ("2025-12-03T12:01:00Z", "2025-12-03T15:00:00Z", "prices as of 12:01 PM"),
        ("2025-12-03T00:05:00Z", "2025-12-03T15:00:00Z", "prices as of 12:05 AM"),
        ("2025-12-03T13:07:00Z", "2025-12-03T15:00:00Z", "prices as of 1:07 PM"),
    ])
    func sameLondonDay_isAsOfTheTime(updated: String, now: String, expected: String) throws {
        #expect(try label(updated: updated, now: now) == expected)
    }

    @Test(arguments: [
        ("2025-10-08T18:30:00+01:00", "2025-10-09T08:00:00+01:00", "prices as of yesterday at 6:30 PM"),
        ("2025-12-02T18:30:00Z", "2025-12-03T08:00:00Z", "prices as of yesterday at 6:30 PM"),
        // One minute either side of a London midnight.
        ("2025-10-08T23:59:00+01:00", "2025-10-09T00:01:00+01:00", "prices as of yesterday at 11:59 PM"),
        ("2025-12-02T23:59:00Z", "2025-12-03T00:00:00Z", "prices as of yesterday at 11:59 PM"),
    ])
    func previousLondonDay_isYesterday(updated: String, now: String, expected: String) throws {
        #expect(try label(updated: updated, now: now) == expected)
    }

    @Test func afterLondonMidnightInBST_isTodayEvenThoughUTCIsStillYesterday() throws {
        // 23:30 UTC on 8 Oct is 00:30 BST on 9 Oct.
        #expect(try label(updated: "2025-10-08T23:30:00Z", now: "2025-10-09T09:00:00Z") == "prices as of 12:30 AM")
    }

    @Test(arguments: [
        ("2025-10-03T11:00:00+01:00", "2025-10-05T09:00:00+01:00", "prices as of 3 Oct at 11:00 AM"),
        ("2025-12-01T18:30:00Z", "2025-12-03T08:00:00Z", "prices as of 1 Dec at 6:30 PM"),
        ("2024-10-03T11:00:00+01:00", "2025-10-09T12:00:00+01:00", "prices as of 3 Oct 2024 at 11:00 AM"),
        ("2025-12-30T09:00:00Z", "2026-01-02T10:00:00Z", "prices as of 30 Dec at 9:00 AM"),
    ])
    func olderDays_giveTheDate(updated: String, now: String, expected: String) throws {
        #expect(try label(updated: updated, now: now) == expected)
    }

    @Test func clocksGoBack26Oct2025_earlyMorningBSTIsStillToday() throws {
        // 23:30 UTC on 25 Oct is 00:30 BST on 26 Oct; at 10:00 GMT the same day it is today.
        #expect(try label(updated: "2025-10-25T23:30:00Z", now: "2025-10-26T10:00:00Z") == "prices as of 12:30 AM")
        // After the change, 06:30 GMT reads as 6:30 AM.
        #expect(try label(updated: "2025-10-26T06:30:00Z", now: "2025-10-26T10:00:00Z") == "prices as of 6:30 AM")
        // The evening before the change, seen after it: yesterday, in BST.
        #expect(try label(updated: "2025-10-25T17:30:00Z", now: "2025-10-26T10:00:00Z")
            == "prices as of yesterday at 6:30 PM")
    }

    @Test func clocksGoForward30Mar2025_labelsUseTheNewOffset() throws {
        // 00:30 GMT, then 01:30 UTC = 02:30 BST, seen at 10:00 BST the same day.
        #expect(try label(updated: "2025-03-30T00:30:00Z", now: "2025-03-30T09:00:00Z") == "prices as of 12:30 AM")
        #expect(try label(updated: "2025-03-30T01:30:00Z", now: "2025-03-30T09:00:00Z") == "prices as of 2:30 AM")
        #expect(try label(updated: "2025-03-29T23:30:00Z", now: "2025-03-30T09:00:00Z")
            == "prices as of yesterday at 11:30 PM")
    }

    @Test func stale_isStrictlyMoreThan48Hours() throws {
        #expect(try stale(updated: "2025-10-03T11:00:00+01:00", now: "2025-10-05T11:00:00+01:00") == false)
        #expect(try stale(updated: "2025-10-03T11:00:00+01:00", now: "2025-10-05T11:00:01+01:00") == true)
        // Across the 25-hour day of 26 Oct, 48 hours of wall clock are 49 real hours.
        #expect(try stale(updated: "2025-10-25T11:00:00+01:00", now: "2025-10-27T11:00:00Z") == true)
    }

    @Test func yesterdayOnA25HourDay_canAlreadyBeStale() throws {
        let reply = try Fixtures.render(Fixtures.stationRequest(updated: "2025-10-25T00:10:00+01:00",
                                                                now: "2025-10-26T23:50:00Z"))
        #expect(reply.snippet?.freshness == "prices as of yesterday at 12:10 AM")
        #expect(reply.dialog.hasSuffix("prices as of yesterday at 12:10 AM. These prices may be out of date."))
    }

    @Test func feedTimeLaterTheSameDay_saysTheFeedsOwnTime() throws {
        // A clock behind the feed's: the prices were published at 10:55, not at 8:00.
        let reply = try Fixtures.render(Fixtures.stationRequest(updated: "2025-10-09T10:55:00+01:00",
                                                                now: "2025-10-09T08:00:00+01:00"))
        #expect(reply.snippet?.freshness == "prices as of 10:55 AM")
        #expect(reply.dialog.hasSuffix("— prices as of 10:55 AM."))
        #expect(reply.snippet?.stale == false)
    }

    @Test(arguments: [
        // The next London day: its date, never "tomorrow" nor the time of `now`.
        ("2025-10-10T08:00:00+01:00", "2025-10-09T23:45:00+01:00", "prices as of 10 Oct at 8:00 AM"),
        ("2025-10-12T09:15:00+01:00", "2025-10-09T12:00:00+01:00", "prices as of 12 Oct at 9:15 AM"),
        ("2027-01-05T09:15:00Z", "2025-10-09T12:00:00+01:00", "prices as of 5 Jan 2027 at 9:15 AM"),
    ])
    func feedTimeOnALaterDay_saysItsOwnDateAndTime(updated: String, now: String, expected: String) throws {
        #expect(try label(updated: updated, now: now) == expected)
        #expect(try stale(updated: updated, now: now) == false)
        let dialog = try Fixtures.render(Fixtures.stationRequest(updated: updated, now: now)).dialog
        #expect(dialog.hasSuffix("— \(expected).") && !dialog.contains("tomorrow"))
    }

    @Test(arguments: [
        ("2025-12-03T00:00:00Z", "2025-12-03T15:00:00Z", "prices as of midnight"),
        ("2025-12-03T12:00:00Z", "2025-12-03T15:00:00Z", "prices as of noon"),
        ("2025-10-08T12:00:00+01:00", "2025-10-09T08:00:00+01:00", "prices as of yesterday at noon"),
        ("2025-10-09T00:00:00+01:00", "2025-10-10T08:00:00+01:00", "prices as of yesterday at midnight"),
        ("2025-10-03T00:00:00+01:00", "2025-10-05T09:00:00+01:00", "prices as of 3 Oct at midnight"),
        ("2025-12-03T00:01:00Z", "2025-12-03T15:00:00Z", "prices as of 12:01 AM"),
        ("2025-12-03T12:30:00Z", "2025-12-03T15:00:00Z", "prices as of 12:30 PM"),
    ])
    func midnightAndNoon_areSaidInWords(updated: String, now: String, expected: String) throws {
        #expect(try label(updated: updated, now: now) == expected)
    }

    @Test func feedAge_daysAreCountedOnTheLondonCalendar() throws {
        let calendar = try #require(FeedAge.londonCalendar())
        // 22:30 UTC on 25 Oct is 23:30 BST; 00:30 UTC on 27 Oct is 00:30 GMT: two London days back.
        let age = FeedAge(updated: try Fixtures.time("2025-10-25T22:30:00Z"),
                          now: try Fixtures.time("2025-10-27T00:30:00Z"), calendar: calendar)
        #expect(age.day == .earlier(day: 25, month: 10, year: 2025, showYear: false))
        #expect(age.hour == 23 && age.minute == 30)
        #expect(age.stale == false)
    }

    @Test func feedAge_inTheFuture_keepsTheFeedsOwnTime() throws {
        let calendar = try #require(FeedAge.londonCalendar())
        let age = FeedAge(updated: try Fixtures.time("2025-10-09T10:55:00+01:00"),
                          now: try Fixtures.time("2025-10-09T08:00:00+01:00"), calendar: calendar)
        #expect(age == FeedAge(updated: try Fixtures.time("2025-10-09T10:55:00+01:00"),
                               now: try Fixtures.time("2025-10-09T11:00:00+01:00"), calendar: calendar))
        #expect(age.day == .today && age.hour == 10 && age.minute == 55 && !age.stale)
    }
}
