import FeedParsing
import Foundation
import Messages
import PriceIngest
import ServiceKit
import ServiceTesting
import TestSupport
import Testing
import ZeroMQ

/// The polled `--feeds` path, through the real binary: a poll that fetches an older copy than the
/// stored feed changes nothing, says so in one log line and in the feed's status.
struct PolledOlderFeedTests {
    private static let newer = "30/11/2025 11:00:00"
    private static let older = "25/11/2025 11:00:00"

    @Test func poll_whenItFetchesAnOlderCopy_changesNothingAndSaysSo() throws {
        try withTemporaryDirectory { directory in
            let data = directory.appendingPathComponent("data")
            // The store file holds the newer feed, as an earlier ingest would have left it.
            let newerFeed = TestFeeds.document(lastUpdated: Self.newer, sites: TestFeeds.selby(diesel: 139.9))
            let parsed = try FeedParser().parse(newerFeed, retailer: "asda", fetchedAt: Date())
            do {
                let store = try StationStore(directory: data)
                try store.replaceRetailer("asda", stations: parsed.stations, updated: parsed.updated,
                                          fetchedAt: parsed.fetchedAt, source: nil)
                store.close()
            }
            let feedFile = directory.appendingPathComponent("asda-cached.json")
            try TestFeeds.document(lastUpdated: Self.older, sites: TestFeeds.selby(diesel: 149.9)).write(to: feedFile)
            let list = directory.appendingPathComponent("feeds.txt")
            try Data("asda \(feedFile.absoluteString)\n".utf8).write(to: list)

            let process = try ServiceProcess("price-ingest", [
                "--data-dir", data.path, "--bind", "tcp://127.0.0.1:*", "--bind-pub", "tcp://127.0.0.1:*",
                "--feeds", list.path,
            ])
            defer { if process.isRunning { _ = try? process.terminate() } }
            let endpoint = try process.endpoint()
            let line = try process.waitForLog(timeout: .seconds(30)) {
                $0.contains("feed refused") && $0.contains("retailer=asda")
            }
            #expect(line.contains(Self.older) && line.contains(Self.newer), "\(line)")
            #expect(line.contains("svc.request.id=poll"))
            #expect(!process.log.contains("feed ingested"))

            let client = try RequestClient(context: Context(), endpoint: endpoint, timeout: .seconds(10), retries: 0)
            let status = try #require(try client.call(.ingestStatus, EmptyBody(), as: [FeedRecord].self)
                .first { $0.retailer == "asda" })
            #expect(status.lastError?.contains(Self.older) == true)
            #expect(status.lastErrorSource == feedFile.absoluteString)
            #expect(status.version == 1)
            #expect(try process.terminate() == 0)

            let store = try StationStore(directory: data)
            #expect(store.version == 1)
            #expect(try store.stations(retailer: "asda") == parsed.stations.sorted { $0.id < $1.id })
            #expect(try store.feed("asda")?.isFailing == true)
        }
    }
}
