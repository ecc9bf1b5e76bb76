import Foundation
import Messages
import PriceIngest
import ServiceKit
import TestSupport
import Testing
import ZeroMQ

/// Feeds sent faster than they are parsed are held up to a bound in bytes; past it a client's
/// feed is refused `unavailable` at once: 40 feeds of 30 MB sent together took price-ingest to 6.6 GB.
struct WaitingFeedsBoundTests {
    /// A feed of 2,000 stations (about 0.5 MB), its prices from `diesel`.
    private static func feed(diesel: Double) -> Data {
        let sites = (0..<2_000).map { index in
            TestFeeds.Site(id: "w\(index)", address: "\(index) Doncaster Road, Selby",
                           lat: 53.5 + Double(index % 50) * 0.001, lng: -1.5 + Double(index / 50) * 0.001, diesel: diesel)
        }
        return TestFeeds.document(lastUpdated: "2026-12-03T06:30:00Z", sites: sites)
    }

    @Test func feedsSentPastTheBound_areRefusedAtOnce_andTheOthersStored() throws {
        let feeds = (0..<12).map { Self.feed(diesel: 140 + Double($0)) }
        let bound = feeds[0].count * 3
        try withTemporaryDirectory { directory in
            try IngestHarness.with(directory: directory, configure: { $0.maxWaitingFeedBytes = bound }) { harness in
                let socket = try Socket(Context(), .dealer)
                socket.linger = .zero
                socket.receiveTimeout = .seconds(60)
                try socket.connect(harness.endpoint)
                for (index, feed) in feeds.enumerated() {
                    var frame = Data(#"{"v":1,"id":"f\#(index)","type":"ingest.feed","body":"#.utf8)
                    frame.append(TestFeeds.ingestBody(retailer: "r\(index)", feed: feed))
                    frame.append(Data("}".utf8))
                    try socket.send([Data(), frame])
                }
                var stored: [String] = [], refused: [String] = []
                for _ in feeds {
                    let reply = try JSONCoding.decode([String: JSONValue].self, from: try #require(try socket.receive().last))
                    let id = reply["id"]?.stringValue ?? "?"
                    if reply["ok"] == .bool(true) {
                        stored.append(id)
                        continue
                    }
                    guard case .object(let error)? = reply["error"] else {
                        Issue.record("neither ok nor an error: \(reply)")
                        continue
                    }
                    #expect(error["code"] == .string("unavailable"))
                    let message = error["message"]?.stringValue ?? ""
                    #expect(message.contains("waiting to be parsed"), "\(message)")
                    #expect(message.contains("nothing was changed"))
                    refused.append(id)
                }
                #expect(!refused.isEmpty, "12 feeds of 0.5 MB sent at once against a bound of 1.5 MB")
                #expect(stored.count >= 3, "the bound's worth is taken: \(stored)")
                for (index, _) in feeds.enumerated() {
                    let state = (try? harness.state(of: "r\(index)")) ?? nil  // not_found: none stored
                    #expect((state != nil) == stored.contains("f\(index)"), "r\(index): stored only when answered so")
                }
                let stats = try harness.client.call(.sysStats, EmptyBody(), as: StatsBody.self)
                #expect(stats.details["feedsRefusedWaiting"] == .number(Double(refused.count)))
                #expect(stats.details["feedsParsingBytes"] == .number(0))
                // Once those are done, the next is taken.
                let late = try harness.client.callRaw(MessageType.ingestFeed.rawValue,
                                                      rawBody: TestFeeds.ingestBody(retailer: "late", feed: feeds[0]))
                #expect(String(decoding: late, as: UTF8.self).contains(#""accepted":2000"#))
            }
        }
    }
}
