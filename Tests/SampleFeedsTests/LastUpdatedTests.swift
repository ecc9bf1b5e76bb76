import Foundation
import Testing
import SampleFeeds

struct LastUpdatedTests {
    /// 2025-01-15 10:30 UTC (GMT) and 2025-07-15 10:30 UTC (11:30 BST).
    private let winterMorning = Date(timeIntervalSince1970: 1_736_937_000)
    private let summerMorning = Date(timeIntervalSince1970: 1_752_575_400)

    private func lastUpdated(of retailer: String, asOf: Date,
                             stations: Int = 600) throws -> (text: String, date: Date) {
        let feeds = try SampleFeedGenerator(options: .init(stations: stations, seed: 3, asOf: asOf)).feeds()
        let feed = try #require(feeds.first { $0.retailer == retailer })
        let text = try #require(try FeedReader.envelope(feed)["last_updated"] as? String)
        return (text, feed.lastUpdated)
    }

    @Test func lastUpdated_whenBeforeTodaysPublicationInWinter_isYesterdaysInGMT() throws {
        let asda = try lastUpdated(of: "asda", asOf: winterMorning)
        #expect(asda.text == "14/01/2025 11:00:00")
        #expect(asda.date == Date(timeIntervalSince1970: 1_736_852_400)) // 2025-01-14 11:00 UTC
    }

    @Test func lastUpdated_whenAfterTodaysPublicationInSummer_isTodaysInBST() throws {
        let asda = try lastUpdated(of: "asda", asOf: summerMorning)
        #expect(asda.text == "15/07/2025 11:00:00")
        #expect(asda.date == Date(timeIntervalSince1970: 1_752_573_600)) // 2025-07-15 10:00 UTC
    }

    @Test func lastUpdated_whenRetailersPublishAtDifferentTimes_followsEachCadence() throws {
        let asOf = SampleFeedOptions.referenceDate // 09/10/2025 13:00 BST
        #expect(try lastUpdated(of: "shell", asOf: asOf).text == "09/10/2025 00:00:00")
        #expect(try lastUpdated(of: "mfg", asOf: asOf).text == "09/10/2025 00:00:01")
        #expect(try lastUpdated(of: "bp", asOf: asOf).text == "09/10/2025 11:00:05")
        #expect(try lastUpdated(of: "tesco", asOf: asOf).text.hasPrefix("09/10/2025 11:18:"))
        #expect(try lastUpdated(of: "moto", asOf: asOf).text.hasPrefix("09/10/2025 09:58:0"))
    }

    @Test func lastUpdated_whenClocksChange_switchesBetweenGMTAndBST() throws {
        // 2025-03-30 01:30 UTC is 02:30 BST, just after the change: MFG's 00:00:01 was still GMT.
        let spring = try lastUpdated(of: "mfg", asOf: Date(timeIntervalSince1970: 1_743_298_200), stations: 1)
        #expect(spring.text == "30/03/2025 00:00:01")
        #expect(spring.date == Date(timeIntervalSince1970: 1_743_292_801))
        // 2025-10-26 00:30 UTC is 01:30 BST, just before the change back: 00:00:01 BST is 23:00:01 UTC.
        let autumn = try lastUpdated(of: "mfg", asOf: Date(timeIntervalSince1970: 1_761_438_600), stations: 1)
        #expect(autumn.text == "26/10/2025 00:00:01")
        #expect(autumn.date == Date(timeIntervalSince1970: 1_761_433_201))
    }

    @Test func lastUpdated_whenComparedWithTheTimeZoneDatabase_agreesOverDecades() throws {
        let london = try #require(TimeZone(identifier: "Europe/London"))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB_POSIX")
        formatter.timeZone = london
        formatter.dateFormat = "dd/MM/yyyy"
        let stamp = DateFormatter()
        stamp.locale = Locale(identifier: "en_GB_POSIX")
        stamp.timeZone = london
        stamp.dateFormat = "dd/MM/yyyy HH:mm:ss"
        // Dates from 1997 to 2037 at assorted times of day, skipping the first second after midnight.
        for step in 0..<120 {
            let asOf = Date(timeIntervalSince1970: 852_076_800 + Double(step) * 10_519_231)
            let localSecondOfDay = (Int(asOf.timeIntervalSince1970) + london.secondsFromGMT(for: asOf)) % 86_400
            guard localSecondOfDay >= 1 else { continue }
            let mfg = try lastUpdated(of: "mfg", asOf: asOf, stations: 1)
            #expect(mfg.text == formatter.string(from: asOf) + " 00:00:01", "as of \(asOf)")
            #expect(stamp.date(from: mfg.text) == mfg.date, "\(mfg.text)")
        }
    }
}
