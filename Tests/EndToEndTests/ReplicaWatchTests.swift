import Foundation
import Messages
import ServiceKit
import ServiceTesting
import Testing

/// fuel-lookup notices when price-ingest goes quiet or comes back with another store, and says so.
@Suite(.timeLimit(.minutes(2)))
struct ReplicaWatchTests {
    /// An operator's volume is lost: price-ingest starts on an empty store, which reaches the
    /// replica's version with other stations before the replica's next heartbeat. Versions alone
    /// cannot tell; the store's identity does, and the replica reloads everything.
    @Test func lookup_whenPriceIngestStartsAfreshAtTheSameVersion_reloadsEverything() throws {
        let stack = try DataPathStack()
        let tesco = try stack.ingestFile(try stack.writeFeed(FeedFixtures.feed(FeedFixtures.selby), name: "tesco"),
                                         retailer: "tesco")
        try stack.waitForLookupVersion(tesco.version)
        #expect(try cheapestB7(stack)?.station.id == "tesco/cheap")

        // The new store, built apart so that it is already at the same version when it starts.
        let fresh = try DataPathStack(startLookup: false)
        var cheaper = FeedFixtures.selby
        cheaper[1].prices["B7"] = 121.9
        let bp = try fresh.ingestFile(try fresh.writeFeed(FeedFixtures.feed(cheaper), name: "bp"), retailer: "bp")
        #expect(bp.version == tesco.version)
        try fresh.ingest.kill()
        try stack.ingest.kill()
        let store = stack.dataDirectory.appendingPathComponent("price-ingest.sqlite").path
        let freshStore = fresh.dataDirectory.appendingPathComponent("price-ingest.sqlite").path
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: store + suffix)
            if FileManager.default.fileExists(atPath: freshStore + suffix) {
                try FileManager.default.copyItem(atPath: freshStore + suffix, toPath: store + suffix)
            }
        }

        let before = stack.lookup?.logLength ?? 0
        try stack.restartIngest()
        try stack.lookup?.waitForLog(timeout: .seconds(20), after: before) { $0.contains("price-ingest has another store") }
        try stack.lookup?.waitForLog(timeout: .seconds(20), after: before) { $0.contains("index swapped") }
        #expect(try cheapestB7(stack)?.station.id == "bp/dear")
    }

    /// A replica that never got a snapshot holds no prices: its silence warning says lookups answer
    /// unavailable (it said "answering from the index held", version 0).
    @Test func lookup_startedWhilePriceIngestIsDown_saysItHoldsNoPrices() throws {
        let stack = try DataPathStack(startLookup: false)
        try stack.ingest.kill()
        try stack.startLookup()
        try stack.lookup?.waitForLog(timeout: .seconds(20), after: 0) {
            $0.contains("price-ingest silent; no prices held yet, lookups answer unavailable")
        }
        #expect(stack.lookup?.log.contains("answering from the index held") == false)
    }

    /// price-ingest dies: the replica warns, reports itself out of step, keeps answering from what
    /// it holds, and catches up once price-ingest is back.
    @Test func lookup_whenPriceIngestFallsSilent_saysSo_keepsAnswering_andCatchesUpWhenItIsBack() throws {
        let stack = try DataPathStack()
        let first = try stack.ingestFile(try stack.writeFeed(FeedFixtures.feed(FeedFixtures.selby), name: "tesco"),
                                         retailer: "tesco")
        try stack.waitForLookupVersion(first.version)
        #expect(try replicaDetails(stack)["inStep"] == .bool(true))

        let beforeKill = stack.lookup?.logLength ?? 0
        try stack.ingest.kill()
        try stack.lookup?.waitForLog(timeout: .seconds(20), after: beforeKill) {
            $0.contains("price-ingest silent; answering from the index held")
        }
        let silent = try replicaDetails(stack)
        #expect(silent["inStep"] == .bool(false))
        #expect(silent["synced"] == .bool(true))
        guard case .number(let silence)? = silent["ingestHeardSecondsAgo"] else {
            Issue.record("sys.stats has no ingestHeardSecondsAgo: \(silent)")
            return
        }
        #expect(silence >= 5) // ReplicaSync.silenceLimit
        #expect(try cheapestB7(stack)?.pricePence == 139.9)

        let beforeBack = stack.lookup?.logLength ?? 0
        try stack.restartIngest()
        var cheaper = FeedFixtures.selby
        cheaper[1].prices["B7"] = 129.9
        let second = try stack.ingestFile(try stack.writeFeed(FeedFixtures.feed(cheaper), name: "tesco"),
                                          retailer: "tesco")
        try stack.lookup?.waitForLog(timeout: .seconds(20), after: beforeBack) { $0.contains("price-ingest heard again") }
        try stack.waitForLookupVersion(second.version)
        #expect(try cheapestB7(stack)?.pricePence == 129.9)
        #expect(try replicaDetails(stack)["inStep"] == .bool(true))
    }

    private func cheapestB7(_ stack: DataPathStack) throws -> LookupResult? {
        let point = FeedFixtures.selbyPoint
        return try stack.lookupClient().call(.lookupCheapest,
            LookupRequest(fuel: "B7", lat: point.lat, lng: point.lng, radiusMiles: 5), as: LookupReply.self).results.first
    }

    private func replicaDetails(_ stack: DataPathStack) throws -> [String: JSONValue] {
        try stack.lookupClient().call(.sysStats, EmptyBody(), as: StatsBody.self).details
    }

    /// `--ingest-pub` naming something that is not price-ingest's publisher (its request port, a
    /// copied variable): the replica took the snapshot, said it was synced, passed its readiness
    /// probe and served those prices for good (operator walkthrough). It is not ready until the
    /// publisher is heard, not even for a moment after the snapshot, and says what to fix, every minute.
    @Test func lookup_whoseSubscriptionNeverCarriesAWord_isNotReady_andSaysWhy() throws {
        let stack = try DataPathStack(startLookup: false)
        _ = try stack.ingestFile(try stack.writeFeed(FeedFixtures.feed(FeedFixtures.selby), name: "tesco"),
                                 retailer: "tesco")
        let lookup = try ServiceProcess("fuel-lookup", ["--ingest", stack.ingestEndpoint,
                                                        "--ingest-pub", stack.ingestEndpoint,
                                                        "--bind", "tcp://127.0.0.1:*"])
        defer { _ = try? lookup.terminate() }
        let client = try RequestClient(context: stack.context, endpoint: try lookup.endpoint(), timeout: .seconds(5),
                                       retries: 0)
        _ = try lookup.waitForLog(timeout: .seconds(20)) { $0.contains("synchronised from snapshot") }
        // Not ready from the start: a probe right after the snapshot must not let it into service.
        let early = try client.call(.sysStats, EmptyBody(), as: StatsBody.self)
        #expect(early.details["synced"] == .bool(false), "\(early.details)")
        let line = try lookup.waitForLog(timeout: .seconds(20)) { $0.contains("nothing ever came from price-ingest's publisher") }
        #expect(line.contains("endpoint=\(stack.ingestEndpoint)") && line.contains("--ingest-pub"), "\(line)")
        let stats = try client.call(.sysStats, EmptyBody(), as: StatsBody.self)
        #expect(stats.details["synced"] == .bool(false), "\(stats.details)")
        let point = FeedFixtures.selbyPoint
        do {
            _ = try client.call(.lookupCheapest, LookupRequest(fuel: "B7", lat: point.lat, lng: point.lng, radiusMiles: 5),
                                as: LookupReply.self)
            Issue.record("a replica that hears no updates answered as if ready")
        } catch {
            #expect(error.code == .unavailable, "\(error)")
        }
    }
}
