import Foundation
import Messages
import ServiceKit
import ServiceTesting
import Testing
import ZeroMQ

/// A client that sends bad requests in a loop gets every answer and is counted in `sys.stats`, but
/// the service's log gets at most 20 "request failed" lines a second, then one line with how many
/// it left out: it cannot fill an operator's disk.
struct LogFloodTests {
    @Test func badRequestsInALoop_areAllAnsweredAndCounted_butTheirLogLinesAreCapped() throws {
        let stack = try DataPathStack(startLookup: false)
        let socket = try Socket(stack.context, .dealer)
        socket.receiveTimeout = .seconds(5)
        try socket.connect(stack.ingestEndpoint)
        var sent = 0
        func askBadly() throws {
            sent += 1
            try socket.send([Data(), Data(#"{"v":1,"id":"flood-\#(sent)","type":"no.such.type","body":{}}"#.utf8)])
            let reply = try socket.receive()
            let text = String(decoding: reply.last ?? Data(), as: UTF8.self)
            #expect(text.contains(#""code":"unknown_type""#), "\(text)")
        }
        let started = ContinuousClock.now
        for _ in 0..<300 { try askBadly() }
        // The count of lines left out comes with the first failure in a later second.
        while !stack.ingest.log.contains("request failures not logged") {
            guard ContinuousClock.now - started < .seconds(10) else {
                Issue.record("no line with the count of failures left out")
                return
            }
            try askBadly()
        }
        let seconds = Int((ContinuousClock.now - started).components.seconds) + 1
        let lines = stack.ingest.log.split(separator: "\n")
        let failed = lines.filter { $0.contains("request failed") }.count
        #expect(failed >= 20 && failed <= 20 * (seconds + 1), "\(failed) lines in about \(seconds) s")
        let leftOut = lines.filter { $0.contains("request failures not logged") }
            .compactMap { line in line.split(separator: " ").first { $0.hasPrefix("count=") }.flatMap { Int($0.dropFirst(6)) } }
        #expect(leftOut.reduce(0, +) >= 300 - failed - 20 && failed + leftOut.reduce(0, +) <= sent, "\(leftOut)")
        let stats = try stack.ingestClient().call(.sysStats, [String: String](), as: StatsBody.self)
        #expect((stats.errorsByCode["unknown_type"] ?? 0) >= sent)
    }
}

extension LogFloodTests {
    /// A flood that stops still gets its last count written (by a timer, a second on): before, the
    /// count waited for a failure that never came, and the log understated the flood.
    @Test func aFloodThatStops_stillHasItsLastCountWritten_soEveryFailureIsAccountedFor() throws {
        let stack = try DataPathStack(startLookup: false)
        let socket = try Socket(stack.context, .dealer)
        socket.receiveTimeout = .seconds(5)
        try socket.connect(stack.ingestEndpoint)
        let sent = 300
        for number in 1...sent {
            try socket.send([Data(), Data(#"{"v":1,"id":"burst-\#(number)","type":"no.such.type","body":{}}"#.utf8)])
            _ = try socket.receive()
        }
        // Lines written, plus the counts of lines left out, until they account for every failure.
        func accounted() -> (written: Int, leftOut: [Int]) {
            let lines = stack.ingest.log.split(separator: "\n")
            let leftOut = lines.filter { $0.contains("request failures not logged") }.compactMap { line in
                line.split(separator: " ").first { $0.hasPrefix("count=") }.flatMap { Int($0.dropFirst(6)) }
            }
            return (lines.filter { $0.contains("request failed") }.count, leftOut)
        }
        let deadline = ContinuousClock.now + .seconds(5)
        var seen = accounted()
        while seen.written + seen.leftOut.reduce(0, +) < sent && ContinuousClock.now < deadline {
            let offset = stack.ingest.logLength
            _ = try? stack.ingest.waitForLog(timeout: deadline - .now, after: offset) { $0.contains("not logged") }
            seen = accounted()
        }
        #expect(!seen.leftOut.isEmpty, "the burst was not throttled: \(seen.written) lines")
        #expect(seen.written + seen.leftOut.reduce(0, +) == sent, "\(seen.written) written, left out \(seen.leftOut)")
    }
}

extension LogFloodTests {
    /// A client that leaves with thousands of requests in flight (a load test ending, an overloaded
    /// open loop) makes every reply undeliverable: one "reply not delivered" line each used to
    /// flood the log (91,521 lines in 3 s in a walkthrough). Those lines are capped too.
    @Test func aClientLeavingWithThousandsInFlight_getsItsUndeliveredRepliesLoggedCapped() throws {
        let stack = try DataPathStack()
        let socket = try Socket(stack.context, .dealer)
        socket.linger = .seconds(5)  // every request reaches fuel-lookup before the connection closes
        socket.sendHighWaterMark = 0
        try socket.connect(try #require(stack.lookupEndpoint))
        let request = #"{"v":1,"id":"x","type":"lookup.cheapest","body":{"fuel":"B7","lat":53.8,"lng":-1.5}}"#
        for _ in 0..<50_000 { try socket.send([Data(), Data(request.utf8)]) }
        socket.close()
        let lookup = try #require(stack.lookup)
        try lookup.waitForLog(timeout: .seconds(15)) { $0.contains("replies not delivered not logged") }
        let lines = lookup.log.split(separator: "\n").filter { $0.contains("reply not delivered") }
        #expect(lines.count <= 60, "\(lines.count) lines")
        #expect(lines.first?.contains("svc.request.id=x") == true, "\(lines.first ?? "")")
        // A client that left is an everyday event: a notice, not a warning (QA: noise after every run).
        #expect(lines.first?.contains("notice") == true && lines.first?.contains("the client left") == true,
                "\(lines.first ?? "")")
    }
}

extension LogFloodTests {
    /// Broken feeds sent in a loop: each is refused and answered, but "feed refused" lines are
    /// capped like "request failed" ones (300 feeds wrote 300 lines).
    @Test func refusedFeedsInALoop_haveTheirLinesCapped() throws {
        let stack = try DataPathStack(startLookup: false)
        let client = try stack.ingestClient()
        let started = ContinuousClock.now
        for number in 1...300 {
            do {
                _ = try client.call(.ingestFeed, IngestFeedRequest(retailer: "flood\(number % 7)",
                                                                   feed: .object(["stations": .array([])])),
                                    as: IngestFeedReply.self)
                Issue.record("an empty feed was taken")
            } catch {
                #expect(error.code == .badRequest)
            }
        }
        let seconds = Int((ContinuousClock.now - started).components.seconds) + 1
        let counted = try stack.ingest.waitForLog(timeout: .seconds(5)) { $0.contains("feed refusals not logged") }
        #expect(counted.contains("count="))
        let refused = stack.ingest.log.split(separator: "\n").filter { $0.contains("feed refused") }.count
        #expect(refused >= 20 && refused <= 20 * (seconds + 1), "\(refused) lines in about \(seconds) s")
    }
}

extension LogFloodTests {
    /// Feed URLs that cannot be fetched, asked for in a loop: each request fails with the reason,
    /// and the log gets its capped "request failed" lines only (fuzzing: a "fetch failed" line per
    /// request came besides them, uncapped: 600 lines in 0.17 s).
    @Test func unfetchableURLsInALoop_areLoggedOnlyAsCappedRequestFailures() throws {
        let stack = try DataPathStack(startLookup: false)
        let socket = try Socket(stack.context, .dealer)
        socket.receiveTimeout = .seconds(10)
        try socket.connect(stack.ingestEndpoint)
        let sent = 200
        for number in 1...sent {
            // No such file (not_found: its own capped line) and a directory (request failed, capped).
            let url = number.isMultiple(of: 2) ? "file://\(stack.dataDirectory.path)" : "file:///nonexistent/fuelboard-\(number).json"
            let body = #"{"retailer":"jet","url":"\#(url)"}"#
            try socket.send([Data(), Data(#"{"v":1,"id":"url-\#(number)","type":"ingest.feed","body":\#(body)}"#.utf8)])
        }
        for _ in 1...sent {
            let text = String(decoding: try socket.receive().last ?? Data(), as: UTF8.self)
            #expect(text.contains("could not fetch the jet feed"), "\(text)")
        }
        let lines = stack.ingest.log.split(separator: "\n")
        #expect(!lines.contains { $0.contains("fetch failed") })
        let failed = lines.filter { $0.contains("request failed") }.count
        #expect(failed >= 1 && failed <= 60, "\(failed) request failed lines for \(sent) requests")
        // A feed asked for that is not there is logged too (review: it was logged nowhere), capped.
        let missing = lines.filter { $0.contains("requested feed not found") }
        #expect(missing.count >= 1 && missing.count <= 60, "\(missing.count) not-found lines for \(sent / 2)")
        #expect(missing.first?.contains("retailer=jet") == true, "\(missing.first ?? "none")")
    }
}
