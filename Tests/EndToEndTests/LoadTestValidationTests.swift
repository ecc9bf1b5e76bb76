import Foundation
import Messages
import ServiceKit
import ServiceTesting
import Synchronization
import Testing

/// Reply validation as a real run meets it: any valid JSON envelope is a reply, a lookup that does
/// not answer its query is invalid, an invalid reply frees its request's place in a closed loop,
/// and a reply later than --timeout is a timeout.
struct LoadTestValidationTests {
    /// One result answering `body`'s query: the fuel asked, 0.1 miles north of the point.
    private static func result(_ body: [String: Any], fuel: String? = nil, price: Double = 139.9) -> String {
        let lat = (body["lat"] as? Double ?? 0) + 0.00145, lng = body["lng"] as? Double ?? 0
        return #"{"distanceMiles":0.1,"fuel":"\#(fuel ?? body["fuel"] as? String ?? "")","pricePence":\#(price),"#
            + #""station":{"id":"s/1","lat":\#(lat),"lng":\#(lng)},"updated":"2026-11-30T10:00:00Z"}"#
    }

    private static func loadtest(_ server: RawLookupServer, _ arguments: [String]) throws -> ServiceProcess {
        try ServiceProcess("fuelboard", ["loadtest", "--lookup", server.endpoint, "--points", "uniform",
                                         "--warmup", "0s", "--json"] + arguments)
    }

    @Test func validRepliesWrittenWithSpacesAndKeysInAnotherOrder_pass() throws {
        let server = try RawLookupServer { id, body in
            #"{ "v": 1, "ok": true, "id": \#(id), "body": { "results": [ \#(Self.result(body)) ] } }"#
        }
        defer { server.stop() }
        let cli = try Self.loadtest(server, ["--concurrency", "2", "--requests", "200"])
        #expect(try cli.waitForExit(timeout: .seconds(30)) == 0, "\(cli.log.suffix(900))")
        let report = try jsonReport(in: cli.log)
        #expect(report["requests"] as? Int == 200 && report["invalidReplies"] as? Int == 0, "\(report)")
        #expect(report["contentChecked"] as? Int == 200 && report["okReplies"] as? Int == 200)
    }

    /// Replies later than --timeout are timeouts, not ok replies: an overloaded open loop reported
    /// 270,637 ok replies beside 147,103 replies (QA). Offered far more than the stand-in answers,
    /// replies soon come later than 20 ms, many before the 100 ms check has timed them out.
    @Test func repliesLaterThanTheTimeout_areNotCountedAsOkReplies() throws {
        let server = try RawLookupServer { id, body in
            #"{"v":1,"ok":true,"id":\#(id),"body":{"results":[\#(Self.result(body))]}}"#
        }
        defer { server.stop() }
        let cli = try Self.loadtest(server, ["--rate", "1000000", "--duration", "2s", "--timeout", "20ms"])
        _ = try cli.waitForExit(timeout: .seconds(30))
        let report = try jsonReport(in: cli.log)
        let requests = try #require(report["requests"] as? Int), ok = try #require(report["okReplies"] as? Int)
        let late = try #require(report["lateReplies"] as? Int), checked = try #require(report["contentChecked"] as? Int)
        #expect(late > 0, "the run never went past its timeout: \(report)")
        #expect(ok <= requests && checked <= ok, "ok \(ok), checked \(checked), requests \(requests)")
    }

    /// Replies the server dropped (its `repliesNotDelivered` grew during the run) are said: they
    /// read as requests still in flight (QA: 358,272 "unanswered" while fuel-lookup dropped 8,664).
    @Test func repliesTheServerCouldNotDeliver_areReportedFromItsStats() throws {
        let calls = Atomic<Int>(0)
        // 3, 10, 17...: 7 more at each look, before and after a run.
        let server = try RawLookupServer(notDelivered: { 7 * calls.add(1, ordering: .relaxed).newValue - 4 }) { id, body in
            #"{"v":1,"ok":true,"id":\#(id),"body":{"results":[\#(Self.result(body))]}}"#
        }
        defer { server.stop() }
        let cli = try Self.loadtest(server, ["--concurrency", "2", "--requests", "200"])
        #expect(try cli.waitForExit(timeout: .seconds(30)) == 0, "\(cli.log.suffix(900))")
        let report = try jsonReport(in: cli.log)
        #expect(report["serverRepliesNotDelivered"] as? Int == 7, "\(report)")
        let text = try ServiceProcess("fuelboard", ["loadtest", "--lookup", server.endpoint, "--points", "uniform",
                                                    "--warmup", "0s", "--requests", "50"])
        _ = try text.waitForExit(timeout: .seconds(30))
        #expect(text.log.contains("dropped     7 replies the server could not deliver"), "\(text.log.suffix(1500))")
        // A server without the figure (a bare echo): nothing said.
        let bare = try RawLookupServer { id, body in #"{"v":1,"ok":true,"id":\#(id),"body":{"results":[\#(Self.result(body))]}}"# }
        defer { bare.stop() }
        let plain = try Self.loadtest(bare, ["--requests", "50"])
        _ = try plain.waitForExit(timeout: .seconds(30))
        #expect(try jsonReport(in: plain.log)["serverRepliesNotDelivered"] == nil)
    }

    /// Error replies spent the second's 1,000 full checks: with two replies in three errors, 874 of
    /// some 13,900 ok replies were checked (QA). Only ok replies, which have content, count now.
    @Test func errorReplies_doNotSpendTheChecks_andTheLineCountsOkReplies() throws {
        let server = try RawLookupServer { id, body in
            (Int(id.filter(\.isNumber)) ?? 0) % 3 == 0 ? #"{"v":1,"ok":true,"id":\#(id),"body":{"results":[\#(Self.result(body))]}}"#
                : #"{"v":1,"ok":false,"id":\#(id),"error":{"code":"unavailable","message":"busy"}}"#
        }
        defer { server.stop() }
        let cli = try Self.loadtest(server, ["--concurrency", "4", "--requests", "3000"])
        #expect(try cli.waitForExit(timeout: .seconds(30)) == 1, "errors fail the run: \(cli.log.suffix(900))")
        let report = try jsonReport(in: cli.log)
        #expect(report["okReplies"] as? Int == 1000 && report["contentChecked"] as? Int == 1000, "\(report)")
        #expect((report["errorsByCode"] as? [String: Int])?["unavailable"] == 2000, "\(report)")
    }

    @Test(arguments: [("wrong fuel", "a result for another fuel"),
                      ("negative price", "a price outside 50-500p"),
                      ("empty body", "no results list"),
                      ("not JSON", "not a JSON reply envelope with an id")])
    func repliesThatDoNotAnswerTheQuery_areInvalid_andFreeTheirPlace(kind: String, reason: String) throws {
        let server = try RawLookupServer { id, body in
            switch kind {
            case "wrong fuel": #"{"body":{"results":[\#(Self.result(body, fuel: "LPG"))]},"id":\#(id),"ok":true,"v":1}"#
            case "negative price": #"{"body":{"results":[\#(Self.result(body, price: -5))]},"id":\#(id),"ok":true,"v":1}"#
            case "empty body": #"{"body":{},"id":\#(id),"ok":true,"v":1}"#
            default: #"{"body":{"results":[]},"id":\#(id),"ok":true,"v":1"#
            }
        }
        defer { server.stop() }
        // A place lost to an invalid reply would wait out the 30 s timeout: the run would not end.
        let started = ContinuousClock.now
        let cli = try Self.loadtest(server, ["--concurrency", "2", "--requests", "50", "--timeout", "30s"])
        #expect(try cli.waitForExit(timeout: .seconds(25)) == 1, "\(cli.log.suffix(900))")
        #expect(ContinuousClock.now - started < .seconds(20))
        let report = try jsonReport(in: cli.log)
        #expect((report["invalidReplies"] as? Int ?? 0) >= 50, "\(report)")
        #expect((report["invalidByReason"] as? [String: Int])?[reason] != nil, "\(report)")
        #expect(report["timeouts"] as? Int == 0 && report["requests"] as? Int == 0)
    }

    @Test func aReplyLaterThanTheTimeout_isATimeout_notASuccess() throws {
        // Every reply 150 ms after its request, against a 100 ms timeout (checked every 100 ms:
        // without the reply's own time most of them would pass as successes).
        let server = try RawLookupServer { id, body in
            Thread.sleep(forTimeInterval: 0.15)  // the stand-in server's own slowness, not synchronisation
            return #"{"body":{"results":[\#(Self.result(body))]},"id":\#(id),"ok":true,"v":1}"#
        }
        defer { server.stop() }
        let cli = try Self.loadtest(server, ["--concurrency", "1", "--duration", "1500ms", "--timeout", "100ms"])
        #expect(try cli.waitForExit(timeout: .seconds(30)) == 1, "\(cli.log.suffix(900))")
        let report = try jsonReport(in: cli.log)
        #expect(report["requests"] as? Int == 0, "\(report)")
        #expect((report["timeouts"] as? Int ?? 0) >= 5, "\(report)")
    }

    @Test func anOpenLoopTheServerCannotKeepUpWith_isBehind_withItsUnansweredInTheLatencies() throws {
        // Every other request is never answered: half the rate offered comes back.
        let server = try RawLookupServer { id, body in
            guard let number = Int(id.trimmingCharacters(in: CharacterSet(charactersIn: "\""))), number % 2 == 0 else {
                return nil
            }
            return #"{"body":{"results":[\#(Self.result(body))]},"id":\#(id),"ok":true,"v":1}"#
        }
        defer { server.stop() }
        let cli = try Self.loadtest(server, ["--rate", "200", "--duration", "2s"])
        #expect(try cli.waitForExit(timeout: .seconds(30)) == 3, "\(cli.log.suffix(900))")
        let report = try jsonReport(in: cli.log)
        #expect(report["fellBehind"] as? Bool == true, "\(report)")
        let scheduled = report["scheduled"] as? Int ?? 0, answered = report["requests"] as? Int ?? 0
        #expect(scheduled >= 390 && answered <= scheduled / 2 + 2, "\(report)")
        #expect(report["unansweredInLatency"] as? Int == scheduled - answered, "\(report)")
        // Half the requests were never answered, up to 2 s before the end: the p90 is no reply's.
        let latency = try #require(report["latencyMicroseconds"] as? [String: Double])
        #expect((latency["p90"] ?? 0) > 100_000, "\(latency)")
    }

    /// With --json, a run that stops before measuring says why on stdout as JSON too (a script
    /// reading stdout got nothing at 64 and 69).
    @Test func withJSON_aRunStoppedBeforeMeasuring_saysWhyOnStdoutAsJSON() throws {
        for (arguments, code, status) in [(["--seed", "-1"], "usage", Int32(64)),
                                          (["--lookup", try unservedEndpoint()], "unavailable", Int32(69))] {
            let run = try CommandRun.fuelboard(["loadtest", "--json"] + arguments)
            #expect(run.status == status, "\(run.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any],
                                      "\(run.stdout)")
            let error = try #require(object["error"] as? [String: Any])
            #expect(error["code"] as? String == code && (error["message"] as? String)?.isEmpty == false, "\(object)")
            #expect(object["exitStatus"] as? Int == Int(status))
        }
    }
}
