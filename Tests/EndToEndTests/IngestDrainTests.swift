import Foundation
import ServiceTesting
import TestSupport
import Testing
import ZeroMQ

/// A stopped price-ingest finishes the feeds in hand before it exits: the first SIGTERM during a
/// large feed's parse left it unanswered ("stopping at once"), and `fuelboard ingest` failed with
/// "the connection closed" in a rolling restart (operator QA).
struct IngestDrainTests {
    /// A feed of `count` stations around Selby, each its own site.
    private static func largeFeed(count: Int) -> Data {
        let sites = (0..<count).map { index in
            FeedFixtures.Site(id: "big\(index)", lat: 53.5 + Double(index % 500) * 0.001,
                              lng: -1.5 + Double(index / 500) * 0.001, prices: ["B7": 139.9])
        }
        return FeedFixtures.feed(sites)
    }

    private static func frame(id: String, type: String, body: Data) -> Data {
        var frame = Data(#"{"v":1,"id":"\#(id)","type":"\#(type)","body":"#.utf8)
        frame.append(body)
        frame.append(Data("}".utf8))
        return frame
    }

    @Test func priceIngest_whenStoppedDuringAFeed_storesAndAnswersItThenExits0() throws {
        try withTemporaryDirectory { directory in
            let ingest = try ServiceProcess("price-ingest", [
                "--data-dir", directory.path, "--bind", "tcp://127.0.0.1:*", "--bind-pub", "tcp://127.0.0.1:*",
            ])
            let socket = try Socket(Context(), .dealer)
            socket.linger = .zero
            socket.receiveTimeout = .seconds(20)
            try socket.connect(try ingest.endpoint())
            var body = Data(#"{"retailer":"big","feed":"#.utf8)
            body.append(Self.largeFeed(count: 20_000))
            body.append(Data("}".utf8))
            try socket.send([Data(), Self.frame(id: "feed", type: "ingest.feed", body: body)])
            // Answered first, the ping behind it shows the feed is off the socket and being parsed.
            try socket.send([Data(), Self.frame(id: "ping", type: "sys.ping", body: Data("{}".utf8))])
            let pong = String(decoding: try socket.receive().last ?? Data(), as: UTF8.self)
            #expect(pong.contains(#""id":"ping""#), "the ping waited for the feed: \(pong.prefix(200))")
            kill(ingest.pid, SIGTERM)
            let reply = String(decoding: try socket.receive().last ?? Data(), as: UTF8.self)
            #expect(reply.contains(#""id":"feed""#) && reply.contains(#""ok":true"#), "\(reply.prefix(300))")
            #expect(reply.contains(#""accepted":20000"#), "\(reply.prefix(300))")
            #expect(try ingest.waitForExit(timeout: .seconds(20)) == 0)
            #expect(ingest.log.contains("stopping: answering the requests in flight"), "\(ingest.log.suffix(1500))")
            #expect(ingest.log.contains("stopping: requests in flight answered"), "\(ingest.log.suffix(1500))")
        }
    }
}
