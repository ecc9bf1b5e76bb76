import Foundation
import Messages
import ServiceKit
import ServiceTesting
import Testing
import ZeroMQ

/// A service with an immediate handler, one that throws, one that answers on a timer and one
/// that answers once the batch of messages it came in has been handled (a group commit).
private func startBatchService() throws -> InProcessService {
    try InProcessService.start { context in
        let server = try ReplyServer(name: "batch", context: context, bind: "tcp://127.0.0.1:*",
                                     logger: Logger(label: "batch", level: .critical), maxRequestBytes: 64 << 10)
        server.on(.ingestStatus, EchoText.self) { body, _ in
            guard !body.text.isEmpty else { throw ServiceError.badRequest("text is empty") }
            return body
        }
        server.on("test.later") { request in
            let (outcome, responder) = request.deferReply()
            server.after(.milliseconds(5)) { responder.reply(EchoText(text: "later")) }
            return outcome
        }
        server.on("test.twice") { request in
            let (outcome, responder) = request.deferReply()
            server.after(.zero) {
                responder.reply(EchoText(text: "first"))
                responder.reply(EchoText(text: "second"))
            }
            return outcome
        }
        var committed: [Responder] = []
        server.on("test.commit") { request in
            let (outcome, responder) = request.deferReply()
            committed.append(responder)
            return outcome
        }
        server.afterBatch = {
            for responder in committed { responder.reply(EchoText(text: "committed")) }
            committed.removeAll()
        }
        return server
    }
}

private struct EchoText: Codable, Sendable, Equatable {
    var text: String
}

/// Sends one frame and returns the reply as a JSON object.
private func exchange(_ service: InProcessService, _ frame: String) throws -> [String: Any] {
    let socket = try Socket(service.context, .dealer)
    socket.receiveTimeout = .seconds(2)
    try socket.connect(service.endpoint)
    try socket.send([Data(), Data(frame.utf8)])
    let reply = try socket.receive()
    return try #require(try JSONSerialization.jsonObject(with: reply.last ?? Data()) as? [String: Any])
}

private func batch(_ requests: [String], id: String = "b1") -> String {
    #"{"v":1,"id":"\#(id)","type":"sys.batch","body":{"requests":[\#(requests.joined(separator: ","))]}}"#
}

private func request(_ id: String, _ type: String, _ body: String = "{}") -> String {
    #"{"v":1,"id":"\#(id)","type":"\#(type)","body":\#(body)}"#
}

private func replies(_ reply: [String: Any]) throws -> [[String: Any]] {
    let body = try #require(reply["body"] as? [String: Any])
    return try #require(body["replies"] as? [[String: Any]])
}

private func errorCode(_ reply: [String: Any]) -> String? {
    (reply["error"] as? [String: Any])?["code"] as? String
}

struct ReplyServerBatchTests {
    @Test func batch_whenRequestsMixed_answersEachInOrderWithItsOwnIdAndOutcome() throws {
        let service = try startBatchService()
        defer { service.stop() }
        let reply = try exchange(service, batch([
            request("a", "ingest.status", #"{"text":"one"}"#),
            request("b", "ingest.status", #"{"text":""}"#),
            request("c", "no.such.type"),
            request("d", "sys.ping"),
            #" { "v" : 1 , "id" : "e" , "t\u0079pe" : "sys.\u0070ing" } "#,
        ]))
        #expect(reply["id"] as? String == "b1")
        #expect(reply["ok"] as? Bool == true)
        let inner = try replies(reply)
        #expect(inner.map { $0["id"] as? String } == ["a", "b", "c", "d", "e"])
        #expect(inner.map { $0["ok"] as? Bool } == [true, false, false, true, true], "escapes and spaces read as alone")
        #expect((inner[0]["body"] as? [String: Any])?["text"] as? String == "one")
        #expect(errorCode(inner[1]) == "bad_request")
        #expect(errorCode(inner[2]) == "unknown_type")
        #expect((inner[3]["body"] as? [String: Any])?["service"] as? String == "batch")
    }

    /// A name given twice inside one request of a batch refuses that request only, with the reply it
    /// would have had alone (its id, unless the id is what was given twice); it refused the batch.
    @Test func batch_whenOneRequestGivesANameTwice_refusesThatRequestOnly() throws {
        let service = try startBatchService()
        defer { service.stop() }
        let reply = try exchange(service, batch([
            request("a", "ingest.status", #"{"text":"one"}"#),
            request("b", "ingest.status", #"{"text":"x","text":"y"}"#),
            #"{"v":1,"id":"c","id":"c2","type":"sys.ping","body":{}}"#,
            request("d", "sys.ping"),
        ]))
        #expect(reply["ok"] as? Bool == true, "\(reply)")
        let inner = try replies(reply)
        #expect(inner.map { $0["ok"] as? Bool } == [true, false, false, true])
        #expect(inner.map { $0["id"] as? String } == ["a", "b", nil, "d"])
        #expect(errorCode(inner[1]) == "bad_request" && errorCode(inner[2]) == "bad_request")
        let message = (inner[1]["error"] as? [String: Any])?["message"] as? String ?? ""
        #expect(message.contains(#"names "text" twice"#), "\(message)")
        // In the batch's own envelope or body, the batch is refused as a whole.
        let outer = try exchange(service, #"{"v":1,"id":"b2","type":"sys.batch","body":{"requests":[],"requests":[]}}"#)
        #expect(outer["ok"] as? Bool == false && errorCode(outer) == "bad_request" && outer["id"] as? String == "b2")
    }

    @Test func batch_whenRequestsAnswerLater_waitsForAllOfThem() throws {
        let service = try startBatchService()
        defer { service.stop() }
        let reply = try exchange(service, batch([
            request("late", "test.later"),
            request("now", "ingest.status", #"{"text":"now"}"#),
            request("commit", "test.commit"),
        ]))
        let inner = try replies(reply)
        #expect(inner.map { $0["id"] as? String } == ["late", "now", "commit"])
        #expect(inner.map { ($0["body"] as? [String: Any])?["text"] as? String } == ["later", "now", "committed"])
    }

    @Test func batch_whenARequestIsAnsweredTwice_isSentOnceWithTheFirstAnswer() throws {
        let service = try startBatchService()
        defer { service.stop() }
        let socket = try Socket(service.context, .dealer)
        socket.receiveTimeout = .seconds(2)
        try socket.connect(service.endpoint)
        try socket.send([Data(), Data(batch([request("t", "test.twice")]).utf8)])
        let first = try #require(try JSONSerialization.jsonObject(with: socket.receive().last ?? Data())
                                 as? [String: Any])
        let inner = try replies(first)
        #expect((inner.first?["body"] as? [String: Any])?["text"] as? String == "first")
        // Both answers were given before this ping is read: a second batch reply would come first.
        try socket.send([Data(), Data(request("after", "sys.ping").utf8)])
        let next = try #require(try JSONSerialization.jsonObject(with: socket.receive().last ?? Data())
                                as? [String: Any])
        #expect(next["id"] as? String == "after")
    }

    @Test func batch_whenAnElementIsNotARequest_answersItWithBadRequestAndTheOthersNormally() throws {
        let service = try startBatchService()
        defer { service.stop() }
        let inner = try replies(try exchange(service, batch([#"[1,2]"#, "17", request("ok", "sys.ping")])))
        #expect(inner.count == 3)
        #expect(errorCode(inner[0]) == "bad_request")
        #expect(inner[0]["id"] is NSNull)
        #expect(errorCode(inner[1]) == "bad_request")
        #expect(inner[2]["ok"] as? Bool == true)
    }

    @Test func batch_whenItHoldsABatch_refusesTheInnerOne() throws {
        let service = try startBatchService()
        defer { service.stop() }
        let nested = batch([request("deep", "sys.ping")], id: "inner")
        let inner = try replies(try exchange(service, batch([nested, request("ok", "sys.ping")])))
        #expect(inner[0]["id"] as? String == "inner")
        #expect(errorCode(inner[0]) == "bad_request")
        #expect(inner[1]["ok"] as? Bool == true)
        // The refused inner batch is a request like the ping beside it; only the outer frame is not.
        let client = try RequestClient(context: Context(), endpoint: service.endpoint)
        let stats = try client.call(.sysStats, EmptyBody(), as: StatsBody.self)
        #expect(stats.requests == 2)
        #expect(stats.latencyMicroseconds.count == 2)
        #expect(stats.requestsByType["sys.batch"] == 2)
    }

    @Test(arguments: [
        #"{}"#, #"{"requests":{}}"#, #"{"requests":"x"}"#, #"[]"#, #"{"other":[]}"#,
    ])
    func batch_whenBodyHasWrongShape_repliesBadRequest(body: String) throws {
        let service = try startBatchService()
        defer { service.stop() }
        let reply = try exchange(service, request("b", "sys.batch", body))
        #expect(reply["id"] as? String == "b")
        #expect(errorCode(reply) == "bad_request")
    }

    @Test func batch_whenEmpty_repliesWithNoReplies() throws {
        let service = try startBatchService()
        defer { service.stop() }
        #expect(try replies(try exchange(service, batch([]))).isEmpty)
    }

    @Test func batch_whenOverTheLimit_repliesTooLarge() throws {
        let service = try startBatchService()
        defer { service.stop() }
        let many = Array(repeating: "{}", count: ReplyServer.maxBatchRequests + 1)
        let reply = try exchange(service, batch(many))
        #expect(errorCode(reply) == "too_large")
    }

    @Test func stats_afterABatch_countEachRequestUnderItsOwnType() throws {
        let service = try startBatchService()
        defer { service.stop() }
        _ = try exchange(service, batch([
            request("a", "ingest.status", #"{"text":"x"}"#), request("b", "test.commit"), request("c", "nope"),
        ]))
        let client = try RequestClient(context: Context(), endpoint: service.endpoint)
        let stats = try client.call(.sysStats, EmptyBody(), as: StatsBody.self)
        #expect(stats.requests == 3, "the requests in the batch, not the frame that carried them")
        #expect(stats.latencyMicroseconds.count == 3)
        #expect(stats.requestsByType["sys.batch"] == 1)
        #expect(stats.requestsByType["ingest.status"] == 1)
        #expect(stats.requestsByType["test.commit"] == 1)
        #expect(stats.errorsByCode["unknown_type"] == 1)
    }
}
