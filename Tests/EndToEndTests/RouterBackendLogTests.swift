import Foundation
import Messages
import ServiceKit
import ServiceTesting
import Testing
import ZeroMQ

/// An operator reading intent-router's log learns that a backend is down: the router used to
/// answer with a fallback and count it in `sys.stats`, without a line.
struct RouterBackendLogTests {
    /// An intent-router on ephemeral ports with these backends, and a client of it.
    private func startRouter(location: String, lookup: String, dialog: String, _ extra: [String]) throws
        -> (ServiceProcess, RequestClient) {
        let router = try ServiceProcess("intent-router", ["--bind", "tcp://127.0.0.1:*", "--plugins", "tcp://127.0.0.1:*",
                                                          "--location", location, "--lookup", lookup,
                                                          "--dialog", dialog] + extra)
        let client = try RequestClient(context: Context(), endpoint: try router.endpoint(), timeout: .seconds(5),
                                       retries: 0)
        return (router, client)
    }

    @Test func aBackendThatCannotBeReached_isLoggedDown_once() throws {
        let nowhere = try unservedEndpoint()
        let (router, client) = try startRouter(location: nowhere, lookup: nowhere, dialog: nowhere, ["--deadline", "1s"])
        defer { _ = try? router.terminate() }
        for _ in 0..<8 {
            let reply = try client.call(.assistantAsk, AssistantAskRequest(
                user: "u1", utterance: "Ask FuelBoard for the cheapest diesel near me",
                location: Coordinate(lat: 53.8, lng: -1.5)), as: AssistantReply.self)
            #expect(reply.code == .failure, "\(reply.dialog)")
        }
        let line = try router.waitForLog(timeout: .seconds(10)) { $0.contains("backend down") }
        #expect(line.contains("backend=lookup") || line.contains("backend=location"), "\(line)")
        #expect(!line.contains("53.8") && !line.contains("-1.5"), "no coordinates in the log: \(line)")
        let downLines = router.log.split(separator: "\n").filter { $0.contains("backend down") }
        // Eight asks, each calling the backends that are down: one line per backend all the same.
        let backends = downLines.compactMap { line in line.split(separator: " ").first { $0.hasPrefix("backend=") } }
        #expect(Set(backends).count == backends.count && !backends.isEmpty, "\(downLines)")
    }

    /// A backend back is seen without an ask: an idle router said BACKEND DOWN in its stats until
    /// the next ask (operator QA). It probes a down backend once a second.
    @Test func aBackendDownThatComesBack_isLoggedBack_withoutAnAsk() throws {
        let nowhere = try unservedEndpoint()
        let context = Context()
        // A port taken and let go: the router's dialog backend, down until it is bound again.
        let first = try Socket(context, .router)
        let dialog = try first.bind("tcp://127.0.0.1:*")
        first.close()
        let (router, client) = try startRouter(location: nowhere, lookup: nowhere, dialog: dialog, ["--deadline", "1s"])
        defer { _ = try? router.terminate() }
        _ = try client.call(.assistantAsk, AssistantAskRequest(user: "u1", utterance: "Ask FuelBoard for help"),
                            as: AssistantReply.self)
        try router.waitForLog(timeout: .seconds(10)) { $0.contains("backend down") && $0.contains("backend=dialog") }
        let offset = router.logLength
        let back = try Socket(context, .router)
        defer { back.close() }
        _ = try back.bind(dialog)
        let line = try router.waitForLog(timeout: .seconds(10), after: offset) {
            $0.contains("backend back") && $0.contains("backend=dialog")
        }
        #expect(line.contains(dialog), "\(line)")
        let stats = try client.call(.sysStats, EmptyBody(), as: StatsBody.self)
        guard case .object(let down)? = stats.details["backendDown"] else {
            Issue.record("sys.stats has no backendDown: \(stats.details)")
            return
        }
        #expect(down["dialog"] == .number(0), "\(down)")
    }

    /// A router whose --lookup names another service (dialog-renderer here, a copied port): every
    /// ask failed with "I can't reach fuel prices" and nothing in the router's log said why
    /// (operator walkthrough). The backend's answer is logged, at most a line a second.
    @Test func aBackendThatAnswersWithAnError_isLoggedWithItsCode() throws {
        let renderer = try ServiceProcess("dialog-renderer", ["--bind", "tcp://127.0.0.1:*"])
        defer { _ = try? renderer.terminate() }
        let rendererEndpoint = try renderer.endpoint()
        let nowhere = try unservedEndpoint()
        let (router, client) = try startRouter(location: nowhere, lookup: rendererEndpoint, dialog: rendererEndpoint,
                                               ["--deadline", "1s"])
        defer { _ = try? router.terminate() }
        for _ in 0..<5 {
            let reply = try client.call(.assistantAsk, AssistantAskRequest(
                user: "u1", utterance: "Ask FuelBoard for the cheapest diesel near me",
                location: Coordinate(lat: 53.8, lng: -1.5)), as: AssistantReply.self)
            #expect(reply.code == .failure, "\(reply.dialog)")
        }
        let line = try router.waitForLog(timeout: .seconds(10)) { $0.contains("backend error") }
        #expect(line.contains("backend=lookup") && line.contains("endpoint=\(rendererEndpoint)"), "\(line)")
        #expect(line.contains("code=unknown_type") && line.contains("svc.type=lookup.cheapest"), "\(line)")
        // The call's id is the one the backend's own log gives the request it refused.
        let callID = try #require(line.split(separator: " ").first { $0.hasPrefix("svc.call.id=") }?
            .dropFirst("svc.call.id=".count))
        let refused = try renderer.waitForLog(timeout: .seconds(10)) { $0.contains("svc.request.id=\(callID)") }
        #expect(refused.contains("unknown_type"), "\(refused)")
        let errorLines = router.log.split(separator: "\n").filter { $0.contains("backend error") }
        #expect(errorLines.count < 5, "throttled: \(errorLines.count) lines for 5 asks")
    }

    /// At debug, the most the router writes, no line of the whole log carries what the user said
    /// (people say where they are) or where they are.
    @Test func theWholeLogAtDebug_carriesNoCoordinatesAndNoUtterance() throws {
        let nowhere = try unservedEndpoint()
        let (router, client) = try startRouter(location: nowhere, lookup: nowhere, dialog: nowhere,
                                               ["--deadline", "500ms", "--log-level", "debug"])
        defer { _ = try? router.terminate() }
        let utterances = ["Ask FuelBoard for the cheapest diesel near me, I'm at 10 Downing Street SW1A 2AA",
                          "Ask FuelBoard for the cheapest fuel near me", "Zebra crossing on Acacia Avenue"]
        for utterance in utterances {
            _ = try client.call(.assistantAsk, AssistantAskRequest(
                user: "u1", utterance: utterance, location: Coordinate(lat: 53.80123, lng: -1.54987)),
                as: AssistantReply.self)
        }
        _ = try router.waitForLog(timeout: .seconds(10)) { $0.contains("backend down") }
        let log = router.log
        #expect(log.contains("utterance"), "the debug lines are there")
        for secret in ["Downing", "SW1A", "Acacia", "Zebra", "53.80", "1.549"] {
            #expect(!log.contains(secret), "\(secret) in the log:\n\(log)")
        }
    }
}
