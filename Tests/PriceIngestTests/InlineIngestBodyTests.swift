import Foundation
import Messages
import PriceIngest
import TestSupport
import Testing

/// An inline feed is taken as the bytes the client sent, in any member order and spacing; a body
/// that cannot be read that way gets the same errors as before.
struct InlineIngestBodyTests {
    private let feed = String(decoding: TestFeeds.document(lastUpdated: "30/11/2025 11:00:00",
                                                           sites: TestFeeds.selby(diesel: 139.9)), as: UTF8.self)

    @Test func inlineFeed_beforeTheRetailerAndSpaced_isStored() throws {
        try withTemporaryDirectory { directory in
            try IngestHarness.with(directory: directory) { harness in
                let reply = try harness.ingest(rawBody: "{ \"feed\" :\n \(feed) , \"retailer\" : \"as\\u0064a\" }")
                #expect(reply.body?.retailer == "asda")
                #expect(reply.body?.accepted == 3)
                #expect(try harness.state(of: "asda")?.stations.count == 3)
            }
        }
    }

    @Test(arguments: [
        (#"{"retailer": 5, "feed": {}}"#, "bad body for ingest.feed"),
        (#"{"feed": {"stations": []}}"#, "bad body for ingest.feed"),
        (#"{"retailer": "asda", "feed": null}"#, #"needs exactly one of "feed" or "url""#),
        (#"{"retailer": "asda", "feed": {"stations": []}, "url": "http://example.invalid/f.json"}"#,
         #"needs exactly one of "feed" or "url""#),
        (#"{"retailer": "asda", "feed": "stations"}"#, "feed"),
    ])
    func body_whenUnusable_isRefusedSayingWhy(body: String, message: String) throws {
        try withTemporaryDirectory { directory in
            try IngestHarness.with(directory: directory) { harness in
                let reply = try harness.ingest(rawBody: body)
                #expect(reply.ok == false)
                #expect(reply.error?.code == .badRequest, "\(body)")
                #expect(reply.error?.message.contains(message) == true, "\(reply.error?.message ?? "")")
            }
        }
    }
}
