import Foundation
import Messages
import PriceIngest
import TestSupport
import Testing

/// `ingest.remove` against a real service and SQLite file: the retailer's stations and feed record
/// go under a new version, replicas are told (an update with no stations), others stay.
struct RemoveRetailerTests {
    private let feed = TestFeeds.document(lastUpdated: "30/11/2025 11:00:00", sites: TestFeeds.selby(diesel: 139.9))

    @Test func remove_takesTheRetailerOutOfTheStoreTheIndexAndTheReplicas() throws {
        try withTemporaryDirectory { directory in
            try IngestHarness.with(directory: directory) { harness in
                #expect(try harness.ingest(feed, retailer: "asda").ok)
                #expect(try harness.ingest(feed, retailer: "tesco").ok)
                _ = try harness.nextUpdate()
                _ = try harness.nextUpdate()
                let reply = try harness.remove("Asda")
                #expect(reply.body == RemoveRetailerReply(retailer: "asda", stations: 3, version: 3))
                let update = try harness.nextUpdate()
                #expect(update.retailer == "asda" && update.version == 3 && update.stations.isEmpty)
                #expect(try harness.status().map(\.retailer) == ["tesco"])
                let index = try harness.snapshotIndex()
                #expect(index.version == 3 && index.retailers?.map(\.retailer) == ["tesco"])
                #expect(try harness.state(of: "tesco")?.stations.count == 3)

                let again = try harness.remove("asda")
                #expect(again.error?.code == .notFound)
                #expect(try harness.snapshotIndex().version == 3, "a removal of nothing uses no version")
                #expect(try harness.remove("").error?.code == .badRequest)
            }
            let store = try StationStore(directory: directory)
            #expect(store.version == 3)
            #expect(try store.stations(retailer: "asda").isEmpty && store.stationCount == 3)
        }
    }

    @Test func remove_ofARetailerInTheFeedList_warnsThatItsPollBringsItBack() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("feeds/asda.json")
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try feed.write(to: file)
            let feeds = try FeedList(text: "asda \(file.absoluteString)\n")
            try IngestHarness.with(directory: directory.appendingPathComponent("data"), feeds: feeds) { harness in
                // The poll at start stores it (its update may go out before the harness subscribes).
                try harness.waitUntilStored("asda")
                let reply = try #require(try harness.remove("asda").body)
                #expect(reply.warnings == ["asda is still in the feed list (--feeds): its next poll stores it again"])
            }
        }
    }
}
