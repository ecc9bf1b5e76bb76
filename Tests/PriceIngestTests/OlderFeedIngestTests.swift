import FeedParsing
import Foundation
import Messages
import PriceIngest
import TestSupport
import Testing

/// ingest.feed against a real service and SQLite file: a request replaces the retailer's stations
/// as the contract says, even with a feed older than the stored one, and says so (a poll's older
/// copy is refused: PolledOlderFeedTests).
struct OlderFeedIngestTests {
    private static let newer = "30/11/2025 11:00:00"
    private static let older = "25/11/2025 11:00:00"
    private let newerFeed = TestFeeds.document(lastUpdated: newer, sites: TestFeeds.selby(diesel: 139.9))
    private let olderFeed = TestFeeds.document(lastUpdated: older, sites: TestFeeds.selby(diesel: 149.9))

    /// Diesel prices of a retailer's stations, in id order (tenths of a penny).
    private func diesel(_ state: RetailerState?) -> [Int32?] {
        state?.stations.map { $0.prices[.b7]?.tenths } ?? []
    }

    @Test func ingestFeed_whenOlderThanStored_replacesTheStationsAndWarnsNamingBothTimes() throws {
        try withTemporaryDirectory { directory in
            try IngestHarness.with(directory: directory) { harness in
                #expect(try harness.ingest(newerFeed).ok)
                let reply = try harness.ingest(olderFeed)
                let body = try #require(reply.body)
                #expect(body.version == 2)
                #expect(body.warningsByKind["older_feed"] == 1)
                #expect(body.warnings.contains { $0.contains(Self.older) && $0.contains(Self.newer) })
                #expect(diesel(try harness.state(of: "asda")) == [1499, 1509, 1519])
                #expect(try harness.nextUpdate().version == 1)
                #expect(try harness.nextUpdate().version == 2)
                // And the newer feed applies again, with no warning.
                let again = try harness.ingest(newerFeed)
                #expect(again.body?.version == 3)
                #expect(again.body?.warningsByKind["older_feed"] == nil)
                #expect(diesel(try harness.state(of: "asda")) == [1399, 1409, 1419])
            }
            let store = try StationStore(directory: directory)
            #expect(store.version == 3)
        }
    }

    @Test func ingestFeed_withTheSameLastUpdated_isAppliedAgain() throws {
        try withTemporaryDirectory { directory in
            try IngestHarness.with(directory: directory) { harness in
                #expect(try harness.ingest(newerFeed).body?.version == 1)
                let again = try harness.ingest(newerFeed)
                #expect(again.body?.version == 2)
                #expect(again.body?.accepted == 3)
                #expect(again.ok && again.body?.warningsByKind["older_feed"] == nil)
                #expect(diesel(try harness.state(of: "asda")) == [1399, 1409, 1419])

                let corrected = TestFeeds.document(lastUpdated: Self.newer, sites: TestFeeds.selby(diesel: 135.9))
                #expect(try harness.ingest(corrected).body?.version == 3)
                #expect(diesel(try harness.state(of: "asda")) == [1359, 1369, 1379])
            }
        }
    }

    @Test func ingestFeed_whenNewerThanStored_replacesTheStations() throws {
        try withTemporaryDirectory { directory in
            try IngestHarness.with(directory: directory) { harness in
                #expect(try harness.ingest(olderFeed).ok)
                let reply = try harness.ingest(newerFeed)
                #expect(reply.body?.version == 2)
                #expect(diesel(try harness.state(of: "asda")) == [1399, 1409, 1419])
                let status = try #require(try harness.status().first { $0.retailer == "asda" })
                #expect(status.updated == FeedTimestamp.parse(Self.newer))
                #expect(status.lastError == nil)
            }
        }
    }

    @Test func ingestFeed_fromAnOlderURL_isAppliedWithTheWarning() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("feeds/asda-old.json")
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(),
                                                    withIntermediateDirectories: true)
            try olderFeed.write(to: file)
            try IngestHarness.with(directory: directory.appendingPathComponent("data")) { harness in
                #expect(try harness.ingest(newerFeed).ok)
                let reply = try harness.ingest(url: file)
                #expect(reply.body?.warningsByKind["older_feed"] == 1)
                #expect(diesel(try harness.state(of: "asda")) == [1499, 1509, 1519])
            }
        }
    }

    @Test func ingestFeed_whenATimeIsTheFetchTimeStandingIn_isNotOrdered() throws {
        try withTemporaryDirectory { directory in
            try IngestHarness.with(directory: directory) { harness in
                #expect(try harness.ingest(newerFeed).ok)
                // No last_updated: dated by its fetch time, which orders nothing either way.
                let undated = TestFeeds.document(lastUpdated: nil, sites: TestFeeds.selby(diesel: 129.9))
                let reply = try harness.ingest(undated)
                #expect(reply.body?.warningsByKind["missing_last_updated"] == 1)
                #expect(try harness.ingest(olderFeed).body?.version == 3)
                #expect(diesel(try harness.state(of: "asda")) == [1499, 1509, 1519])
            }
        }
    }

    /// An empty list is refused like a list of records none of which can be used: it emptied the
    /// retailer (outside check: 515 Tesco stations gone, no warning).
    @Test func ingestFeed_whenTheListIsEmpty_isRefusedAndTheStoredFeedStays() throws {
        try withTemporaryDirectory { directory in
            try IngestHarness.with(directory: directory) { harness in
                #expect(try harness.ingest(newerFeed).ok)
                let before = diesel(try harness.state(of: "asda"))
                let reply = try harness.ingest(TestFeeds.document(lastUpdated: Self.newer, sites: []))
                #expect(reply.ok == false)
                #expect(reply.error?.code == .badRequest)
                #expect(reply.error?.message == "the feed lists no stations; nothing was changed")
                #expect(diesel(try harness.state(of: "asda")) == before)
                #expect(!before.isEmpty)
            }
        }
    }

    /// Stations that are all at 0,0, or all without a usable price, were kept and emptied the
    /// retailer from every answer (QA: 499 stations gone): refused like an empty list.
    @Test(arguments: ["at 0,0", "no price"])
    func ingestFeed_whenNoStationCouldBeAnswered_isRefusedAndTheStoredFeedStays(kind: String) throws {
        try withTemporaryDirectory { directory in
            try IngestHarness.with(directory: directory) { harness in
                #expect(try harness.ingest(newerFeed).ok)
                let before = diesel(try harness.state(of: "asda"))
                let sites = TestFeeds.selby(diesel: 129.9).map { site in
                    var site = site
                    if kind == "at 0,0" { (site.lat, site.lng) = (0, 0) } else { site.diesel = 0 }
                    return site
                }
                let reply = try harness.ingest(TestFeeds.document(lastUpdated: Self.newer, sites: sites))
                #expect(reply.ok == false)
                #expect(reply.error?.code == .badRequest)
                #expect(reply.error?.message.hasPrefix("none of the feed's 3 records has both a usable location and "
                    + "a price; nothing was changed") == true, "\(reply.error?.message ?? "")")
                #expect(diesel(try harness.state(of: "asda")) == before)
                #expect(!before.isEmpty)
                // A retailer with nothing to lose takes such a feed (a real feed's lone station in
                // Gibraltar is kept, out of answers, as its records are).
                let abroad = try harness.ingest(TestFeeds.document(lastUpdated: Self.newer, sites: sites), retailer: "gib")
                #expect(abroad.ok && abroad.body?.accepted == 3, "\(String(describing: abroad.error))")
            }
        }
    }
}
