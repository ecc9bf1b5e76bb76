import Foundation
import Messages
import TestSupport
import Testing
import ZeroMQ

/// Feeds are parsed away from the loop: a large one (seconds to parse) once made price-ingest
/// deaf meanwhile, so pings timed out and replicas took it for gone.
struct FeedParsedOffLoopTests {
    /// A feed of `count` stations around Selby, each with its own site id.
    private static func largeFeed(count: Int, diesel: Double) -> Data {
        let sites = (0..<count).map { index in
            TestFeeds.Site(id: "big\(index)", address: "\(index) Doncaster Road, Selby",
                           lat: 53.5 + Double(index % 500) * 0.001, lng: -1.5 + Double(index / 500) * 0.001,
                           diesel: diesel)
        }
        return TestFeeds.document(lastUpdated: "2026-12-03T06:30:00Z", sites: sites)
    }

    private static func send(_ socket: Socket, id: String, type: MessageType, body: Data) throws {
        var frame = Data(#"{"v":1,"id":"\#(id)","type":"\#(type.rawValue)","body":"#.utf8)
        frame.append(body)
        frame.append(Data("}".utf8))
        try socket.send([Data(), frame])
    }

    /// The next reply on `socket` (within its receive timeout): its id, whether it is ok, and its
    /// body's `name` member.
    private static func nextReply(_ socket: Socket, bodyMember name: String) throws
        -> (id: String, ok: Bool, member: JSONValue?, text: String)
    {
        let frame = try #require(try socket.receive().last)
        let reply = try JSONCoding.decode([String: JSONValue].self, from: frame)
        var member: JSONValue?
        if case .object(let body)? = reply["body"] { member = body[name] }
        return (reply["id"]?.stringValue ?? "", reply["ok"] == .bool(true), member, String(decoding: frame, as: UTF8.self))
    }

    @Test func aPingSentAfterALargeFeed_isAnsweredBeforeTheFeedIsParsed() throws {
        try withTemporaryDirectory { directory in
            try IngestHarness.with(directory: directory) { harness in
                let socket = try Socket(Context(), .dealer)
                socket.linger = .zero
                socket.receiveTimeout = .seconds(60)
                try socket.connect(harness.endpoint)
                let feed = Self.largeFeed(count: 20_000, diesel: 139.9)
                // One connection: the service reads the feed before the ping.
                try Self.send(socket, id: "feed", type: .ingestFeed, body: TestFeeds.ingestBody(retailer: "big", feed: feed))
                try Self.send(socket, id: "ping", type: .sysPing, body: Data("{}".utf8))
                let first = try Self.nextReply(socket, bodyMember: "accepted")
                #expect(first.id == "ping", "the ping waited for the feed's parse")
                let second = first.id == "ping" ? try Self.nextReply(socket, bodyMember: "accepted") : first
                #expect(second.id == "feed")
                #expect(second.ok, "\(second.text)")
                #expect(second.member == .number(20_000))
            }
        }
    }

    @Test func aFeedSentDuringAnothersParse_isCommittedAfterIt() throws {
        try withTemporaryDirectory { directory in
            try IngestHarness.with(directory: directory) { harness in
                let context = Context()
                let sockets = try (0..<2).map { _ in
                    let socket = try Socket(context, .dealer)
                    socket.linger = .zero
                    socket.receiveTimeout = .seconds(60)
                    try socket.connect(harness.endpoint)
                    return socket
                }
                // The large feed is being parsed once the ping behind it is answered; then the small
                // one comes on another connection. Parsed side by side, the small one would be stored
                // first and then replaced by the request sent before it.
                let large = Self.largeFeed(count: 20_000, diesel: 130.9)
                let small = TestFeeds.document(lastUpdated: "2026-12-03T06:30:00Z", sites: TestFeeds.selby(diesel: 150.9))
                try Self.send(sockets[0], id: "large", type: .ingestFeed, body: TestFeeds.ingestBody(retailer: "asda", feed: large))
                try Self.send(sockets[0], id: "ping", type: .sysPing, body: Data("{}".utf8))
                #expect(try Self.nextReply(sockets[0], bodyMember: "version").id == "ping")
                try Self.send(sockets[1], id: "small", type: .ingestFeed, body: TestFeeds.ingestBody(retailer: "asda", feed: small))
                let largeReply = try Self.nextReply(sockets[0], bodyMember: "version")
                let smallReply = try Self.nextReply(sockets[1], bodyMember: "version")
                #expect(largeReply.ok, "\(largeReply.text)")
                #expect(smallReply.ok, "\(smallReply.text)")
                #expect(largeReply.member == .number(1))
                #expect(smallReply.member == .number(2))
                let state = try #require(try harness.state(of: "asda"))
                #expect(state.stations.count == 3)
                #expect(state.stations.allSatisfy { $0.prices[.b7].map { $0.pence >= 150 } ?? false })
            }
        }
    }

    @Test func feedsInABatch_areAnsweredInOneReplyInOrder() throws {
        try withTemporaryDirectory { directory in
            try IngestHarness.with(directory: directory) { harness in
                let socket = try Socket(Context(), .dealer)
                socket.linger = .zero
                socket.receiveTimeout = .seconds(60)
                try socket.connect(harness.endpoint)
                let feed = TestFeeds.document(lastUpdated: "2026-12-03T06:30:00Z", sites: TestFeeds.selby(diesel: 140.9))
                func request(_ id: String, _ type: MessageType, _ body: Data) -> Data {
                    var frame = Data(#"{"v":1,"id":"\#(id)","type":"\#(type.rawValue)","body":"#.utf8)
                    frame.append(body)
                    frame.append(Data("}".utf8))
                    return frame
                }
                var body = Data(#"{"requests":["#.utf8)
                body.append(request("one", .ingestFeed, TestFeeds.ingestBody(retailer: "asda", feed: feed)))
                body.append(Data(",".utf8))
                body.append(request("ping", .sysPing, Data("{}".utf8)))
                body.append(Data(",".utf8))
                body.append(request("two", .ingestFeed, TestFeeds.ingestBody(retailer: "tesco", feed: feed)))
                body.append(Data("]}".utf8))
                try Self.send(socket, id: "batch", type: .sysBatch, body: body)
                let reply = try Self.nextReply(socket, bodyMember: "replies")
                #expect(reply.ok, "\(reply.text)")
                guard case .array(let replies)? = reply.member else {
                    Issue.record("no replies: \(reply.text)")
                    return
                }
                let ids = replies.map { element -> String in
                    if case .object(let object) = element { return object["id"]?.stringValue ?? "" }
                    return ""
                }
                #expect(ids == ["one", "ping", "two"])
                #expect(replies.allSatisfy { element in
                    if case .object(let object) = element { return object["ok"] == .bool(true) }
                    return false
                }, "\(reply.text)")
                #expect(try harness.state(of: "tesco")?.stations.count == 3)
            }
        }
    }
}
