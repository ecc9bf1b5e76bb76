import FeedParsing
import Foundation
import Messages
@testable import PriceIngest
import Testing

/// The ordering rule on its own: which stored and incoming times refuse a feed.
struct FeedOrderTests {
    private let order = FeedOrder(futureTolerance: 3_600)
    private let storedTime = Date(timeIntervalSince1970: 1_764_500_400)  // 30/11/2025 11:00:00 UK
    private var storedFetch: Date { storedTime.addingTimeInterval(600.25) }

    private func stored(updated: Date, fetchedAt: Date) -> FeedRecord {
        FeedRecord(retailer: "asda", version: 4, updated: updated, fetchedAt: fetchedAt, stationCount: 3)
    }

    private func feed(updated: Date, fetchedAt: Date = Date(timeIntervalSince1970: 1_764_600_000.5)) -> ParsedFeed {
        ParsedFeed(retailer: "asda", updated: updated, fetchedAt: fetchedAt, stations: [], refused: [:],
                   warnings: [:], refusedExamples: [:], warningExamples: [:])
    }

    @Test func storedTimeNewer_whenTheFeedIsOlder_isTheStoredTime() {
        let record = stored(updated: storedTime, fetchedAt: storedFetch)
        #expect(order.storedTimeNewer(than: feed(updated: storedTime - 1), stored: record) == storedTime)
    }

    @Test(arguments: [0.0, 1.0, 86_400.0])
    func storedTimeNewer_whenTheFeedIsAsNewOrNewer_isNil(later: Double) {
        let record = stored(updated: storedTime, fetchedAt: storedFetch)
        #expect(order.storedTimeNewer(than: feed(updated: storedTime + later), stored: record) == nil)
    }

    @Test func storedTimeNewer_whenNothingIsStored_isNil() {
        #expect(order.storedTimeNewer(than: feed(updated: storedTime), stored: nil) == nil)
        let failuresOnly = FeedRecord(retailer: "asda", lastErrorAt: storedTime, lastError: "HTTP 503")
        #expect(order.storedTimeNewer(than: feed(updated: storedTime), stored: failuresOnly) == nil)
    }

    @Test func storedTimeNewer_whenTheStoredTimeStoodInForAMissingOne_isNil() {
        let record = stored(updated: storedFetch, fetchedAt: storedFetch)
        #expect(order.storedTimeNewer(than: feed(updated: storedTime), stored: record) == nil)
    }

    @Test func storedTimeNewer_whenTheStoredTimeWasFarAheadOfItsFetch_isNil() {
        let typo = storedTime.addingTimeInterval(365 * 86_400)
        let record = stored(updated: typo, fetchedAt: storedFetch)
        #expect(order.storedTimeNewer(than: feed(updated: storedTime), stored: record) == nil)
        let slightlyAhead = stored(updated: storedFetch + 1_800, fetchedAt: storedFetch)
        #expect(order.storedTimeNewer(than: feed(updated: storedTime), stored: slightlyAhead) == storedFetch + 1_800)
    }

    @Test func storedTimeNewer_whenTheFeedIsDatedByItsFetch_isNil() {
        let record = stored(updated: storedTime, fetchedAt: storedFetch)
        let fetched = storedTime - 86_400
        #expect(order.storedTimeNewer(than: feed(updated: fetched, fetchedAt: fetched), stored: record) == nil)
    }

    @Test func refusal_isAConflictNamingBothTimesInUKTime() {
        let refusal = FeedOrder.refusal(retailer: "asda", feedTime: storedTime - 5 * 86_400, storedTime: storedTime)
        #expect(refusal.code == .conflict)
        #expect(refusal.message.contains("25/11/2025 11:00:00"))
        #expect(refusal.message.contains("30/11/2025 11:00:00"))
        #expect(refusal.message.contains("nothing was changed"))
    }
}
