import Foundation
import Messages
import PriceIngest
import ServiceTesting
import TestSupport
import Testing

/// A poll that fetches the very bytes already stored changes nothing: no version, nothing
/// published (replicas would rebuild their index for nothing), one line, and the fetch recorded.
struct PolledUnchangedFeedTests {
    @Test func poll_whenTheFeedIsUnchanged_storesNothing_andAChangedOneIsStored() throws {
        try withTemporaryDirectory { directory in
            let data = directory.appendingPathComponent("data")
            let feedFile = directory.appendingPathComponent("asda.json")
            try TestFeeds.document(lastUpdated: "30/11/2025 11:00:00", sites: TestFeeds.selby(diesel: 139.9))
                .write(to: feedFile)
            let list = directory.appendingPathComponent("feeds.txt")
            try Data("asda \(feedFile.absoluteString)\n".utf8).write(to: list)
            let arguments = ["--data-dir", data.path, "--bind", "tcp://127.0.0.1:*", "--bind-pub", "tcp://127.0.0.1:*",
                             "--feeds", list.path]

            // Each start polls once at once: the first stores the feed, the second finds it unchanged.
            let first = try ServiceProcess("price-ingest", arguments)
            try first.waitForLog(timeout: .seconds(30)) { $0.contains("feed ingested") && $0.contains("retailer=asda") }
            #expect(try first.terminate() == 0)
            let firstFetch = try #require(try StationStore(directory: data).feed("asda")?.fetchedAt)

            let second = try ServiceProcess("price-ingest", arguments)
            let line = try second.waitForLog(timeout: .seconds(30)) { $0.contains("feed unchanged") }
            #expect(line.contains("retailer=asda") && line.contains("version=1"), "\(line)")
            #expect(!second.log.contains("feed ingested"))
            #expect(try second.terminate() == 0)
            let store = try StationStore(directory: data)
            #expect(store.version == 1)
            let record = try #require(try store.feed("asda"))
            #expect(record.version == 1)
            #expect(try #require(record.fetchedAt) > firstFetch)
            #expect(record.lastSuccessAt == record.fetchedAt)
            store.close()

            // One price changed: stored as usual.
            try TestFeeds.document(lastUpdated: "30/11/2025 11:30:00", sites: TestFeeds.selby(diesel: 137.9))
                .write(to: feedFile)
            let third = try ServiceProcess("price-ingest", arguments)
            try third.waitForLog(timeout: .seconds(30)) { $0.contains("feed ingested") && $0.contains("version=2") }
            #expect(try third.terminate() == 0)
        }
    }
}
