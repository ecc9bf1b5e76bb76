import Foundation
import Testing
@testable import FeedParsing

struct FeedTimestampTests {
    private func utc(_ text: String) throws -> Date {
        try #require(try? Date(text, strategy: .iso8601))
    }

    @Test func parse_whenDayFirst_neverReadsMonthFirst() throws {
        // 09/10/2025 is 9 October (BST), not 10 September.
        #expect(FeedTimestamp.parse("09/10/2025 11:00:00") == (try utc("2025-10-09T10:00:00Z")))
    }

    @Test func parse_whenWinter_readsGMT() throws {
        #expect(FeedTimestamp.parse("06/12/2025 10:34:39") == (try utc("2025-12-06T10:34:39Z")))
    }

    @Test func parse_whenSummer_readsBST() throws {
        #expect(FeedTimestamp.parse("12/08/2026 00:00:01") == (try utc("2026-08-11T23:00:01Z")))
    }

    @Test func parse_whenOneDigitFields_accepts() throws {
        #expect(FeedTimestamp.parse("22/08/2026 9:58:35") == (try utc("2026-08-22T08:58:35Z")))
        #expect(FeedTimestamp.parse("1/2/2026 7:5:3") == (try utc("2026-02-01T07:05:03Z")))
    }

    @Test func parse_whenDashes_accepts() throws {
        #expect(FeedTimestamp.parse("25-04-2024 10:45:32") == (try utc("2024-04-25T09:45:32Z")))
    }

    @Test func parse_whenAutumnHourRepeats_takesTheFirstOccurrenceInBST() throws {
        // 26/10/2025 01:30 happened twice: 00:30Z (BST) and 01:30Z (GMT).
        #expect(FeedTimestamp.parse("26/10/2025 01:30:00") == (try utc("2025-10-26T00:30:00Z")))
        #expect(FeedTimestamp.parse("26/10/2025 02:00:00") == (try utc("2025-10-26T02:00:00Z")))
    }

    @Test func parse_whenSpringHourDoesNotExist_readsItAsGMT() throws {
        // 30/03/2025 01:30 never showed on UK clocks; read with the offset in force before (GMT).
        #expect(FeedTimestamp.parse("30/03/2025 01:30:00") == (try utc("2025-03-30T01:30:00Z")))
        #expect(FeedTimestamp.parse("30/03/2025 02:30:00") == (try utc("2025-03-30T01:30:00Z")))
    }

    @Test(arguments: [
        "10/13/2025 11:00:00", "31/02/2025 10:00:00", "29/02/2025 10:00:00", "00/01/2025 10:00:00",
        "01/01/2025 24:00:00", "01/01/2025 10:60:00", "01/01/25 10:00:00", "2025-10-09T10:00:00",
        "09/10/2025", "09/10/2025 11", "09/10-2025 11:00:00", "", "yesterday", "09/10/2025  11:00:00 x",
        "001/10/2025 11:00:00",
    ])
    func parse_whenMalformed_returnsNil(text: String) {
        #expect(FeedTimestamp.parse(text) == nil)
    }

    @Test func parse_whenLeapDay_accepts() throws {
        #expect(FeedTimestamp.parse("29/02/2024 12:00:00") == (try utc("2024-02-29T12:00:00Z")))
    }
}

struct FeedFreshnessTests {
    @Test func parse_whenLastUpdatedMissing_warnsAndUsesFetchTime() throws {
        let feed = try FeedFixtures.parse(FeedFixtures.feed([FeedFixtures.station()], lastUpdated: nil))
        #expect(feed.updated == FeedFixtures.fetchedAt)
        #expect(feed.stations.first?.updated == FeedFixtures.fetchedAt)
        #expect(feed.count(.missingLastUpdated) == 1)
    }

    /// A date it cannot read may be old: dated by the fetch, its prices were said to be fresh (a
    /// 14-month-old feed was "as of midnight"). It is refused, saying why.

    @Test(arguments: ["\"10/13/2025 11:00:00\"", "12345", "{}", "\"\"", "\"2025-10-09T10:45:17\"",
                      "\"09/10/2025 10:45:17 CEST\""])
    func parse_whenLastUpdatedUnreadable_isRefused(value: String) throws {
        do {
            _ = try FeedFixtures.parse(FeedFixtures.feed([FeedFixtures.station()], lastUpdated: value))
            Issue.record("\(value) was read as a time")
        } catch {
            guard case .unreadableLastUpdated = error else { Issue.record("\(error)"); return }
            #expect(error.serviceError.code == .badRequest)
            #expect(error.message.contains("dd/mm/yyyy HH:MM:SS"), "\(error.message)")
        }
    }

    /// Other ways a feed may write its time (outside check: each was dated by its fetch).
    @Test(arguments: [("2025-10-09T10:45:17+01:00", "2025-10-09T09:45:17Z"), ("2025-10-09T09:45:17Z", "2025-10-09T09:45:17Z"),
                      ("09/10/2025 10:45", "2025-10-09T09:45:00Z"), ("10-09-2025 10:45:17 BST", "2025-09-10T09:45:17Z"),
                      ("06/12/2025 10:34:39 GMT", "2025-12-06T10:34:39Z"), ("06/12/2025 10:34:39 UTC", "2025-12-06T10:34:39Z")])
    func parse_whenWrittenOtherwise_readsIt(text: String, instant: String) throws {
        #expect(FeedTimestamp.parse(text) == (try #require(try? Date(instant, strategy: .iso8601))), "\(text)")
    }

    @Test func parse_whenOlderThan48Hours_warnsStale() throws {
        let feed = try FeedFixtures.parse(FeedFixtures.feed([FeedFixtures.station()],
                                                            lastUpdated: "\"16/10/2025 11:00:05\""),
                                          fetchedAt: FeedTimestamp.parse("20/10/2025 12:00:00") ?? .distantPast)
        #expect(feed.count(.staleFeed) == 1)
        #expect(feed.updated == FeedTimestamp.parse("16/10/2025 11:00:05"))
        #expect(feed.examples(.staleFeed) == ["last_updated 16/10/2025 11:00:05 is 4 days before the fetch"])
    }

    @Test func aStaleFeedsAge_isSaidInHours_thenInDaysFromThreeDays() {
        #expect(FeedParser.span(50 * 3_600) == "50 hours")
        #expect(FeedParser.span(71.9 * 3_600) == "71 hours")
        #expect(FeedParser.span(10_082 * 3_600) == "420 days")
    }

    @Test func parse_whenJustUnder48Hours_doesNotWarn() throws {
        let feed = try FeedFixtures.parse(FeedFixtures.feed([FeedFixtures.station()],
                                                            lastUpdated: "\"07/10/2025 15:00:01\""))
        #expect(feed.count(.staleFeed) == 0)
    }

    /// A time more than a day after the fetch cannot be the feed's: refused, saying so (fuzzing:
    /// "31/12/9999 23:59:59" was stored and said as the prices' time, and beat every age filter).
    @Test(arguments: ["\"31/12/9999 23:59:59\"", "\"11/10/2025 11:00:00\"", "\"09/11/2025 11:00:00\""])
    func parse_whenLastUpdatedMoreThanADayAfterTheFetch_isRefused(value: String) throws {
        do {
            _ = try FeedFixtures.parse(FeedFixtures.feed([FeedFixtures.station()], lastUpdated: value))
            Issue.record("\(value) was taken")
        } catch {
            guard case .futureLastUpdated = error else { Issue.record("\(error)"); return }
            #expect(error.serviceError.code == .badRequest)
            #expect(error.message.contains("hours after it was fetched"), "\(error.message)")
            #expect(error.message.contains("nothing was changed"), "\(error.message)")
        }
    }

    /// A time before 2000 is a wrong date (year 1, the Unix epoch): refused, where it was stored as a
    /// stale feed and said as the prices' time (adversarial QA). 2000 on is kept, stale.
    @Test(arguments: ["\"01/01/0001 00:00:00\"", "\"1970-01-01T00:00:00Z\"", "\"31/12/1999 23:59:59\""])
    func parse_whenLastUpdatedIsBefore2000_isRefused(value: String) throws {
        do {
            _ = try FeedFixtures.parse(FeedFixtures.feed([FeedFixtures.station()], lastUpdated: value))
            Issue.record("\(value) was taken")
        } catch {
            guard case .implausibleLastUpdated = error else { Issue.record("\(error)"); return }
            #expect(error.serviceError.code == .badRequest)
            #expect(error.message.contains("before 2000") && error.message.contains("nothing was changed"),
                    "\(error.message)")
        }
        let kept = try FeedFixtures.parse(FeedFixtures.feed([FeedFixtures.station()], lastUpdated: "\"01/01/2000 00:00:00\""))
        #expect(kept.count(.staleFeed) == 1)
    }

    /// Within a day ahead (a clock or time zone out) it is kept, with the warning, and dated by its
    /// fetch: it was said as "prices as of" a time still to come (QA).
    @Test func parse_whenLastUpdatedLessThanADayAfterTheFetch_isKeptWarnedAndDatedByTheFetch() throws {
        let feed = try FeedFixtures.parse(FeedFixtures.feed([FeedFixtures.station()],
                                                            lastUpdated: "\"10/10/2025 10:00:00\""))
        #expect(feed.count(.futureLastUpdated) == 1)
        #expect(feed.stations.count == 1)
        #expect(feed.updated == FeedFixtures.fetchedAt)
    }

    /// A few minutes ahead (clocks a little apart) is no warning, but still no time to come.
    @Test func parse_whenLastUpdatedMinutesAfterTheFetch_isDatedByTheFetchWithoutWarning() throws {
        let feed = try FeedFixtures.parse(FeedFixtures.feed([FeedFixtures.station()],
                                                            lastUpdated: "\"09/10/2025 15:10:00\""))
        #expect(feed.count(.futureLastUpdated) == 0)
        #expect(feed.updated == FeedFixtures.fetchedAt)
        let earlier = try FeedFixtures.parse(FeedFixtures.feed([FeedFixtures.station()],
                                                               lastUpdated: "\"09/10/2025 14:50:00\""))
        #expect(earlier.updated == FeedFixtures.fetchedAt.addingTimeInterval(-600), "a time before the fetch is kept")
    }

    @Test func parse_whenLastUpdatedAfterFetch_warnsFuture() throws {
        let feed = try FeedFixtures.parse(FeedFixtures.feed([FeedFixtures.station()],
                                                            lastUpdated: "\"10/10/2025 11:00:00\""))
        #expect(feed.count(.futureLastUpdated) == 1)
        #expect(feed.count(.staleFeed) == 0)
    }
}
