import Foundation
@testable import IntentRouter
import Messages
import ServiceKit
import ServiceTesting
import Testing
import ZeroMQ

private struct Echo: Codable, Sendable, Equatable {
    var text: String
}

/// A backend over tcp that echoes `station.get` bodies; `acceptsBatches: false` makes it answer
/// `sys.batch` as a service that does not know it would (`unknown_type`).
/// `batchBody` makes it answer every batch with that success body instead.
private func startBackend(acceptsBatches: Bool = true, batchBody: String? = nil) throws -> InProcessService {
    try InProcessService.start { context in
        let server = try ReplyServer(name: "backend", context: context, bind: "tcp://127.0.0.1:*",
                                     logger: Logger(label: "backend", level: .critical))
        server.on(.stationGet, Echo.self) { body, _ in body }
        if !acceptsBatches {
            server.on(MessageType.sysBatch.rawValue) { request in
                request.reply(error: ServiceError(.unknownType, "unknown request type 'sys.batch'"))
            }
        }
        if let batchBody {
            server.on(MessageType.sysBatch.rawValue) { request in request.reply(bodyJSON: Array(batchBody.utf8)) }
        }
        return server
    }
}

/// Drives one channel by hand, as the router's loop does: calls, the end of the turn, replies.
private final class ChannelDriver {
    let channel: BackendChannel
    var results: [String: Result<Echo, ServiceError>] = [:]

    init(_ backend: InProcessService) throws {
        // Only failures are scheduled; none is expected here, and one would show as a missing result.
        channel = try BackendChannel(name: "backend", context: backend.context, endpoint: backend.endpoint,
                                     schedule: { _ in })
        channel.sockets[0].receiveTimeout = .milliseconds(20)
    }

    /// Waits for the connection: a call the socket refuses before it is up waits for the next
    /// tick, so one call answered means the next ones go out at the end of their turn.
    func connect() throws -> ChannelDriver {
        call("connected")
        channel.sendOutbox()
        try collect(1)
        results = [:]
        return self
    }

    func call(_ text: String) {
        channel.call(.stationGet, Echo(text: text), as: Echo.self, deadline: .now + .seconds(5)) { result in
            self.results[text] = result
        }
    }

    /// Reads replies until `count` calls have completed, with the router's tick between reads
    /// (it sends what the socket refused before); fails after 5 s.
    func collect(_ count: Int) throws {
        let giveUp = ContinuousClock.now + .seconds(5)
        while results.count < count {
            guard ContinuousClock.now < giveUp else { throw ServiceError(.timeout, "\(results.count) of \(count) answered") }
            if let frames = try? channel.sockets[0].receive() {
                channel.received(frames, from: 0)
            } else {
                channel.expire(now: .now)
            }
            channel.sendOutbox()  // a call resent alone goes at the end of the turn, as in the loop
        }
    }
}

@Suite(.serialized)
struct BackendBatchingTests {
    @Test func aReplyWithAnIdTheChannelNeverGave_isCountedLate_andCompletesNothing() throws {
        let backend = try startBackend()
        defer { backend.stop() }
        let driver = try ChannelDriver(backend).connect()
        let prefix = driver.channel.callIDs.prefix
        driver.call("waiting")  // number 2 or later: not sent, so only a stray reply could complete it
        let strays = ["zz-2", "\(prefix)-999999", "\(prefix)-b999999", "\(prefix)-", "\(prefix)2", "\(prefix)-x2", "\(prefix)-+2", "2"]
        for id in strays {
            driver.channel.received([Data(), Data(#"{"body":{"text":"stray"},"id":"\#(id)","ok":true,"v":1}"#.utf8)], from: 0)
        }
        driver.channel.received([Data(), Data(#"{"body":{},"id":7,"ok":true,"v":1}"#.utf8)], from: 0)
        #expect(driver.channel.lateReplies == UInt64(strays.count + 1))
        #expect(driver.results.isEmpty)
        driver.channel.sendOutbox()
        try driver.collect(1)
        #expect(try driver.results["waiting"]?.get().text == "waiting")
    }

    @Test func callsOfOneTurn_travelInOneBatch_andEachGetsItsOwnReply() throws {
        let backend = try startBackend()
        defer { backend.stop() }
        let driver = try ChannelDriver(backend).connect()
        for text in ["a", "b", "c"] { driver.call(text) }
        driver.channel.sendOutbox()
        try driver.collect(3)
        #expect(driver.channel.batchesSent == 1)
        #expect(driver.channel.callsBatched == 3)
        for text in ["a", "b", "c"] {
            #expect(try driver.results[text]?.get() == Echo(text: text))
        }
        #expect(driver.channel.inFlight == 0)
    }

    @Test func aSingleCall_travelsAlone() throws {
        let backend = try startBackend()
        defer { backend.stop() }
        let driver = try ChannelDriver(backend).connect()
        driver.call("only")
        driver.channel.sendOutbox()
        try driver.collect(1)
        #expect(driver.channel.batchesSent == 0)
        #expect(try driver.results["only"]?.get() == Echo(text: "only"))
    }

    @Test func manyCalls_areSplitIntoBatchesOfAtMostTheLimit() throws {
        let backend = try startBackend()
        defer { backend.stop() }
        let driver = try ChannelDriver(backend).connect()
        let count = BackendChannel.maxBatchCalls + 3
        for index in 0..<count { driver.call("call-\(index)") }
        driver.channel.sendOutbox()
        try driver.collect(count)
        #expect(driver.channel.batchesSent == 2)
        #expect(driver.channel.callsBatched == UInt64(count))
        #expect(driver.results.values.allSatisfy { (try? $0.get()) != nil })
    }

    @Test func aBatchSuccessWithoutReadableReplies_failsItsCalls_andSendsNoneAgain() throws {
        let backend = try startBackend(batchBody: #"{"replies":5}"#)
        defer { backend.stop() }
        let driver = try ChannelDriver(backend).connect()
        for text in ["a", "b"] { driver.call(text) }
        driver.channel.sendOutbox()
        try driver.collect(2)
        for text in ["a", "b"] {
            #expect(throws: ServiceError(.internal, "unreadable batch reply from backend")) {
                try driver.results[text]?.get()
            }
        }
        #expect(driver.channel.inFlight == 0)
        let stats = try RequestClient(context: Context(), endpoint: backend.endpoint)
            .call(.sysStats, EmptyBody(), as: StatsBody.self)
        #expect(stats.requestsByType["station.get"] == 1, "only the connect call ran alone: none was sent again")
    }

    @Test func aBackendWithoutBatches_getsTheCallsOneByOne_forAWhile() throws {
        let backend = try startBackend(acceptsBatches: false)
        defer { backend.stop() }
        let driver = try ChannelDriver(backend).connect()
        for text in ["a", "b"] { driver.call(text) }
        driver.channel.sendOutbox()
        try driver.collect(2)
        #expect(try driver.results["a"]?.get() == Echo(text: "a"))
        #expect(try driver.results["b"]?.get() == Echo(text: "b"))
        #expect(driver.channel.acceptsBatches == false)

        for text in ["c", "d"] { driver.call(text) }
        driver.channel.sendOutbox()
        try driver.collect(4)
        #expect(driver.channel.batchesSent == 1, "only the first, refused batch")
        #expect(try driver.results["d"]?.get() == Echo(text: "d"))
    }
}
