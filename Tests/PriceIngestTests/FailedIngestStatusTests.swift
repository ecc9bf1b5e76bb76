import Foundation
import Messages
import PriceIngest
import TestSupport
import Testing

/// What a refused ingest.feed request leaves in ingest.status, against a real service and SQLite
/// file: a known retailer's feed says it failed; a retailer nobody stored gets no feed at all (any
/// client could otherwise leave feeds behind that fail for ever, false alerts nobody can clear).
struct FailedIngestStatusTests {
    private let feed = TestFeeds.document(lastUpdated: "30/11/2025 11:00:00", sites: TestFeeds.selby(diesel: 139.9))
    private let empty = Data(#"{"last_updated":"30/11/2025 11:00:00","stations":[]}"#.utf8)

    @Test func refusedRequest_forARetailerNotStored_leavesNoFeed() throws {
        try withTemporaryDirectory { directory in
            try IngestHarness.with(directory: directory) { harness in
                #expect(try harness.ingest(feed, retailer: "asda").ok)
                let emptyReply = try harness.ingest(empty, retailer: "../../etc")
                #expect(emptyReply.error?.code == .badRequest)
                let garbage = try harness.ingest(Data(#"{"stations":"none"}"#.utf8), retailer: "newcomer")
                #expect(garbage.error?.code == .badRequest)
                let missing = try harness.ingest(url: directory.appendingPathComponent("nowhere.json"),
                                                 retailer: "elsewhere")
                #expect(missing.error != nil)
                #expect(try harness.status().map(\.retailer) == ["asda"])
                #expect(try harness.status().first?.isFailing == false)
            }
        }
    }

    @Test func refusedRequest_forAStoredRetailer_marksItsFeedFailing() throws {
        try withTemporaryDirectory { directory in
            try IngestHarness.with(directory: directory) { harness in
                #expect(try harness.ingest(feed, retailer: "asda").ok)
                #expect(try harness.ingest(empty, retailer: "asda").error?.code == .badRequest)
                let status = try #require(try harness.status().first)
                // The wire's times are whole milliseconds: the refusal can share the success's.
                #expect(status.retailer == "asda" && status.lastErrorAt.map { $0 >= status.fetchedAt! } == true)
                #expect(status.lastError?.contains("lists no stations") == true)
                #expect(status.version == 1)
            }
        }
    }
}
