import Foundation
import Messages
import ServiceKit
import ServiceTesting
import Testing
import ZeroMQ

/// A client whose connection drops while it waits for a reply says so at once, instead of
/// waiting out its timeout (`fuelboard ingest` waited 120 s for a price-ingest that had died).
struct RequestClientDroppedConnectionTests {
    @Test(.timeLimit(.minutes(1)))
    func aConnectionThatDropsMidRequest_failsAtOnce_unavailable() throws {
        let peer = try VanishingServer(timeout: .seconds(20))
        let client = try RequestClient(context: Context(), endpoint: peer.endpoint, timeout: .seconds(30), retries: 0)
        let started = ContinuousClock.now
        do {
            _ = try client.call(.sysStats, EmptyBody(), as: PingBody.self)
            Issue.record("a peer that closed without answering gave a reply")
        } catch {
            #expect(error.code == .unavailable)
            #expect(error.message.contains("closed while waiting"), "\(error.message)")
        }
        #expect(ContinuousClock.now - started < .seconds(10), "waited \(ContinuousClock.now - started)")
        peer.waitUntilGone()
    }
}
