import Foundation
import Messages
@testable import ServiceKit
import ServiceTesting
import Testing
import ZeroMQ

/// Large replies held for clients that do not read them are bounded in bytes (`sendCounted`).
struct ReplyServerUnreadRepliesTests {
    private static let bigText = String(repeating: "x", count: 256 << 10)

    /// A server whose `test.big` answers 256 KiB; `configure` sets its bounds.
    private func startBigService(_ configure: @escaping @Sendable (ReplyServer) -> Void) throws -> InProcessService {
        try InProcessService.start { context in
            let server = try ReplyServer(name: "big", context: context, bind: "tcp://127.0.0.1:*",
                                         logger: Logger(label: "big", level: .critical))
            server.on("test.big") { request in
                request.reply(capacity: Self.bigText.utf8.count + 16) { out in
                    out.raw(#"{"text":""#)
                    out.raw(Array(Self.bigText.utf8))
                    out.raw(#""}"#)
                }
            }
            configure(server)
            return server
        }
    }

    /// A client that reads nothing until told: one queued message, a 4 KB kernel buffer.
    private func silentClient(_ service: InProcessService) throws -> Socket {
        let socket = try Socket(service.context, .dealer)
        socket.receiveHighWaterMark = 1
        socket.kernelReceiveBuffer = 4096
        socket.receiveTimeout = .seconds(10)
        socket.linger = .zero
        try socket.connect(service.endpoint)
        return socket
    }

    private func big(_ id: String) -> Data { Data(#"{"v":1,"id":"\#(id)","type":"test.big","body":{}}"#.utf8) }

    private func stats(_ client: RequestClient) throws -> StatsBody {
        try client.call(.sysStats, EmptyBody(), as: StatsBody.self)
    }

    private func figure(_ client: RequestClient, _ key: String) throws -> Double {
        guard case .number(let value)? = try stats(client).details[key] else { return -1 }
        return value
    }

    /// Waits (at most 30 s) until the server has taken `count` of `test.big`.
    private func waitUntilHandled(_ client: RequestClient, _ count: UInt64) throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while try (stats(client).requestsByType["test.big"] ?? 0) < count {
            try #require(ContinuousClock.now < deadline, "the server did not take every request")
        }
    }

    private func waitUntilNothingUnread(_ client: RequestClient) throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while try figure(client, "unreadReplyBytes") != 0 {
            try #require(ContinuousClock.now < deadline, "replies read or dropped are still counted as unread")
        }
    }

    @Test func aClientNotReadingLargeReplies_isRefusedPastItsBound_whileOthersAreAnswered() throws {
        let service = try startBigService { $0.unreadBytesPerClient = 2 << 20 }
        defer { service.stop() }
        let silent = try silentClient(service)
        let other = try RequestClient(context: service.context, endpoint: service.endpoint, timeout: .seconds(10), retries: 0)
        // 10 MiB of replies: more than the kernel's buffers and the bound take.
        for index in 0..<40 { try silent.send([Data(), big("s\(index)")]) }
        try waitUntilHandled(other, 40)
        let refused = try figure(other, "largeRepliesRefused")
        #expect(refused >= 1, "some of the silent client's large replies were refused")
        let unread = try figure(other, "unreadReplyBytes")
        #expect(unread <= Double((2 << 20) + (256 << 10) + 1024), "held for the silent client: \(unread) bytes")

        // Another client's large reply is not the silent one's business.
        let answer = try other.call("test.big", EmptyBody(), as: [String: String].self)
        #expect(answer["text"]?.count == 256 << 10)

        // The silent client reads: whole replies (up to the bound, and as its connection took them),
        // and refusals that say why, each with its id.
        var whole = 0, refusals = 0
        for index in 0..<40 {
            let reply = try #require(try JSONSerialization.jsonObject(with: silent.receive().last ?? Data()) as? [String: Any])
            #expect(reply["id"] as? String == "s\(index)")
            if reply["ok"] as? Bool == true {
                #expect(((reply["body"] as? [String: Any])?["text"] as? String)?.count == 256 << 10)
                whole += 1
            } else {
                let error = reply["error"] as? [String: Any]
                #expect(error?["code"] as? String == "unavailable")
                let message = error?["message"] as? String ?? ""
                #expect(message.contains("this client has not read"), "\(message)")
                #expect(message.contains("read the replies, then ask again"))
                refusals += 1
            }
        }
        #expect(whole >= 8, "the bound's worth was sent whole: \(whole)")
        #expect(Double(refusals) == refused)
        try waitUntilNothingUnread(other)
        // Having read them, it is answered again.
        try silent.send([Data(), big("again")])
        let again = try #require(try JSONSerialization.jsonObject(with: silent.receive().last ?? Data()) as? [String: Any])
        #expect(again["ok"] as? Bool == true)
    }

    @Test func allClientsPastTheBoundTogether_getNoLargeReply_butSmallRepliesStill() throws {
        let service = try startBigService { $0.unreadBytesInAll = 2 << 20 }
        defer { service.stop() }
        let silent = try silentClient(service)
        let other = try RequestClient(context: service.context, endpoint: service.endpoint, timeout: .seconds(10), retries: 0)
        for index in 0..<40 { try silent.send([Data(), big("s\(index)")]) }
        try waitUntilHandled(other, 40)
        do {
            _ = try other.call("test.big", EmptyBody(), as: [String: String].self)
            Issue.record("a large reply was sent past the bound for every client")
        } catch {
            #expect(error.code == .unavailable)
            #expect(error.message.contains("big holds"), "\(error.message)")
            #expect(error.message.contains("ask again shortly"))
        }
        _ = try other.call(.sysPing, EmptyBody(), as: PingBody.self)
        // The silent client leaves: what it held is dropped, and large replies go out again.
        silent.close()
        try waitUntilNothingUnread(other)
        let answer = try other.call("test.big", EmptyBody(), as: [String: String].self)
        #expect(answer["text"]?.count == 256 << 10)
    }

    @Test func theRefusal_carriesTheReplysIdAsItWas() throws {
        for id in [#""a\"b,\"id\":1""#, "17", "null", #""plain""#] {
            let reply = Array(#"{"body":{"text":"x"},"id":\#(id),"ok":true,"v":1}"#.utf8)
            let refusal = ReplyServer.unavailableReply(replacing: reply, message: "not read")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(refusal), options: .fragmentsAllowed) as? [String: Any])
            let expected = try JSONSerialization.jsonObject(with: Data(id.utf8), options: .fragmentsAllowed)
            #expect("\(json["id"] ?? "missing")" == "\(expected)", "id \(id)")
            #expect(json["ok"] as? Bool == false)
            #expect((json["error"] as? [String: Any])?["code"] as? String == "unavailable")
        }
    }
}
