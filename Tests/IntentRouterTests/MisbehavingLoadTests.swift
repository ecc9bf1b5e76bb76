import Dispatch
import Foundation
@testable import FuelboardCLI
import Messages
import Synchronization
import Testing
import ZeroMQ

/// A server on a raw ROUTER socket that answers every request at once with what `answer` makes of
/// the request's frame: what a broken service might send back.
private final class MisbehavingServer: Sendable {
    let endpoint: String
    private let context = Context()
    private let done = DispatchSemaphore(value: 0)

    convenience init(_ answer: @escaping @Sendable (_ request: [UInt8]) -> [UInt8]) throws {
        try self.init(messages: { request in [[[], answer(request)]] })
    }

    /// Answers each request with the messages `messages` makes of it, each given as its frames
    /// after the routing id (a well-formed reply: an empty delimiter, then the JSON frame).
    init(messages: @escaping @Sendable (_ request: [UInt8]) -> [[[UInt8]]]) throws {
        let bound = Mutex<Result<String, any Error>?>(nil)
        let ready = DispatchSemaphore(value: 0)
        let context = context, done = done
        Thread {
            defer { done.signal() }
            let socket: Socket
            do {
                socket = try Socket(context, .router)
                socket.linger = .zero
                let endpoint = try socket.bind("tcp://127.0.0.1:*")
                bound.withLock { $0 = .success(endpoint) }
            } catch {
                bound.withLock { $0 = .failure(error) }
                ready.signal()
                return
            }
            ready.signal()
            while let frames = try? socket.receive() {
                guard let routing = frames.first, let request = frames.last else { continue }
                for message in messages(Array(request)) {
                    try? socket.send([routing] + message.map { Data($0) })
                }
            }
        }.start()
        ready.wait()
        endpoint = try bound.withLock { $0! }.get()
    }

    func stop() {
        context.shutdown()
        done.wait()
    }

    /// The request's id as the generator writes it (`"id":"17"`), for answers that keep it.
    static func id(of request: [UInt8]) -> String {
        let text = String(decoding: request, as: UTF8.self)
        guard let start = text.range(of: #""id":""#)?.upperBound,
              let end = text[start...].firstIndex(of: "\"") else { return "0" }
        return String(text[start..<end])
    }
}

/// `fuelboard loadtest` against servers that answer wrongly: each reply is counted once, where it
/// belongs (a load-tester's walkthrough found replies without a usable id counted invalid *and*
/// timed out, holding their place in a closed loop until --timeout and reported as the server
/// stopping; warm-up replies counted as invalid; an envelope with `"ok":"true"` filed as the
/// server's error).
struct MisbehavingLoadTests {
    private func run(against server: MisbehavingServer, warmup: Duration = .zero,
                     rate: Double? = nil) throws -> LoadRunner.Result {
        var settings = LoadRunner.Settings(endpoint: server.endpoint)
        settings.concurrency = 4
        settings.rate = rate
        settings.duration = .milliseconds(600)
        settings.warmup = warmup
        settings.timeout = .seconds(1)
        let plan = try LoadPlan.make(target: .lookup, type: .lookupCheapest, points: [Coordinate(lat: 53.7, lng: -1.07)],
                                     count: 16, seed: 1, radius: 5, fuel: "B7")
        let context = Context()
        defer { context.shutdown() }
        return try LoadRunner(settings: settings, plan: plan, context: context).run { _, _ in }
    }

    /// Every measured request got exactly one outcome: an invalid reply, or still in flight at the end.
    private func expectEachCountedOnce(_ result: LoadRunner.Result, reason: String) {
        #expect(result.invalidReplies > 10, "\(result.invalidReplies)")
        #expect(result.timeouts == 0 && result.completed == 0, "timeouts \(result.timeouts), completed \(result.completed)")
        #expect(result.invalidReplies + result.unanswered == result.sent,
                "invalid \(result.invalidReplies) + unanswered \(result.unanswered) against \(result.sent) sent")
        #expect(result.invalidByReason == [reason: result.invalidReplies], "\(result.invalidByReason)")
        #expect(result.stalledSeconds == 0 && result.longestGap < .milliseconds(500))
    }

    @Test(arguments: [Array("garbage".utf8), Array("[1,2,3]".utf8), Array(#"{"v":1,"ok":true}"#.utf8)])
    func repliesWithoutAnId_areInvalidOnce_andFreeTheirPlace(reply: [UInt8]) throws {
        let server = try MisbehavingServer { _ in reply }
        defer { server.stop() }
        expectEachCountedOnce(try run(against: server), reason: LoadSession.unreadable)
    }

    @Test(arguments: [#"{"id":"999999999","ok":true,"v":1,"body":{}}"#, #"{"id":"abc","ok":true,"v":1,"body":{}}"#,
                      #"{"id":"-3","ok":true,"v":1,"body":{}}"#])
    func repliesWithAnIdNeverSent_areInvalidOnce(reply: String) throws {
        let server = try MisbehavingServer { _ in Array(reply.utf8) }
        defer { server.stop() }
        expectEachCountedOnce(try run(against: server), reason: LoadSession.notOurs)
    }

    @Test(arguments: [#""ok":"true""#, #""ok":false"#])
    func anEnvelopeThatIsNoReply_isInvalid_notTheServersError(ok: String) throws {
        let server = try MisbehavingServer { request in
            Array(#"{"body":{},"id":"\#(MisbehavingServer.id(of: request))",\#(ok),"v":1}"#.utf8)
        }
        defer { server.stop() }
        let result = try run(against: server)
        #expect(result.errorsByCode.isEmpty, "\(result.errorsByCode)")
        expectEachCountedOnce(result, reason: LoadSession.unreadable)
    }

    private static func emptyResults(_ request: [UInt8]) -> [UInt8] {
        Array(#"{"body":{"results":[]},"id":"\#(MisbehavingServer.id(of: request))","ok":true,"v":1}"#.utf8)
    }

    /// A server that answers every request twice: the second reply is invalid, not a late one
    /// (it was counted as "answered later", and the run passed).
    @Test func aSecondReplyToOneRequest_isInvalid_notLate() throws {
        let server = try MisbehavingServer(messages: { request in
            let reply = Self.emptyResults(request)
            return [[[], reply], [[], reply]]
        })
        defer { server.stop() }
        let result = try run(against: server)
        #expect(result.completed > 10 && result.lateReplies == 0 && result.timeouts == 0,
                "completed \(result.completed), late \(result.lateReplies), timeouts \(result.timeouts)")
        #expect(result.invalidByReason == [LoadSession.duplicate: result.duplicateReplies], "\(result.invalidByReason)")
        #expect(result.duplicateReplies >= result.completed - 4 && result.duplicateReplies <= result.completed + 4,
                "\(result.duplicateReplies) duplicates of \(result.completed) replies")
        var settings = LoadRunner.Settings(endpoint: server.endpoint)
        settings.concurrency = 4
        let report = LoadReport(settings: settings, plan: LoadPlan(target: .lookup, bodies: [[]], typeName: "lookup.cheapest"),
                                result: result)
        #expect(report.failed && report.invalidReplies == result.duplicateReplies)
        // The reply rate counts each request's answer once.
        #expect(abs(report.replyRate - Double(result.completed) / report.seconds) < 1, "\(report.replyRate)")
    }

    /// Duplicates of warm-up requests' replies are not counted, as their first replies are not.
    @Test func secondRepliesToTheWarmUp_areNotCounted() throws {
        let server = try MisbehavingServer(messages: { request in
            let reply = Self.emptyResults(request)
            return [[[], reply], [[], reply]]
        })
        defer { server.stop() }
        let result = try run(against: server, warmup: .milliseconds(300))
        #expect(result.completed > 10 && result.duplicateReplies > 10, "\(result.completed), \(result.duplicateReplies)")
        #expect(result.duplicateReplies <= result.completed, "\(result.duplicateReplies) duplicates of \(result.completed)")
    }

    /// A reply that names no request is taken as the oldest waiting's (invalid); that request's
    /// own reply coming after it is not "a second reply" (a server answering garbage, then the
    /// request, was said to answer twice).
    @Test func theOwnReplyOfARequestChargedWithGarbage_isNoDuplicate() throws {
        let server = try MisbehavingServer(messages: { request in
            [[[], Array("garbage".utf8)], [[], Self.emptyResults(request)]]
        })
        defer { server.stop() }
        let result = try run(against: server)
        #expect(result.duplicateReplies == 0, "\(result.invalidByReason)")
        expectEachCountedOnce(result, reason: LoadSession.unreadable)
    }

    /// A reply of more than one frame after the delimiter (or none) breaks the contract: invalid,
    /// counted once, though its last frame is a good reply (the last frame alone was read).
    @Test(arguments: [[[UInt8]]([[], [], []]), [[UInt8]]([[], Array("extra".utf8), []]), [[UInt8]]([])])
    func aReplyOfTheWrongFrames_isInvalidOnce(frames shape: [[UInt8]]) throws {
        let server = try MisbehavingServer(messages: { request in
            // `shape` with the good reply as its last frame (none before it: no delimiter).
            [shape.dropLast() + [Self.emptyResults(request)]]
        })
        defer { server.stop() }
        expectEachCountedOnce(try run(against: server), reason: LoadSession.misframed)
    }

    @Test func invalidRepliesToTheWarmUp_areNotCounted() throws {
        let server = try MisbehavingServer { _ in Array("garbage".utf8) }
        defer { server.stop() }
        let result = try run(against: server, warmup: .milliseconds(300))
        expectEachCountedOnce(result, reason: LoadSession.unreadable)
    }

    @Test func anOpenLoop_countsEachGarbageReplyOnce() throws {
        let server = try MisbehavingServer { _ in Array("garbage".utf8) }
        defer { server.stop() }
        let result = try run(against: server, rate: 500)
        expectEachCountedOnce(result, reason: LoadSession.unreadable)
    }
}
