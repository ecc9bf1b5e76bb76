import Foundation
import Glibc
import Messages
import ServiceKit
import ServiceTesting
import Testing

/// Feeds in, answers out, across real processes over tcp with a real SQLite file.
@Suite(.serialized)
struct DataPathTests {
    private func cheapestB7(_ stack: DataPathStack) throws -> LookupReply {
        let point = FeedFixtures.selbyPoint
        return try stack.lookupClient().call(.lookupCheapest,
            LookupRequest(fuel: "B7", lat: point.lat, lng: point.lng, radiusMiles: 5, limit: 5), as: LookupReply.self)
    }

    @Test func ingest_whenFeedAccepted_lookupAnswersTheCheapestUsableStation() throws {
        let stack = try DataPathStack()
        let file = try stack.writeFeed(FeedFixtures.feed(FeedFixtures.selby), name: "tesco")
        let reply = try stack.ingestFile(file, retailer: "tesco")
        #expect(reply.accepted == 4)
        #expect(reply.withoutLocation == 1)
        #expect(reply.warningsByKind["sentinel_price"] == 2)
        try stack.waitForLookupVersion(reply.version)

        let answer = try cheapestB7(stack)
        #expect(answer.results.map(\.station.id) == ["tesco/cheap", "tesco/dear"])
        #expect(answer.results.first?.pricePence == 139.9)
        #expect(answer.results.allSatisfy { $0.pricePence.map { $0 >= 80 && $0 < 300 } ?? false })
        let updated = try #require(answer.results.first?.updated)
        #expect(JSONCoding.formatISO8601(updated) == "2026-11-29T06:30:00Z")
    }

    /// A price far below the rest of its retailer's feed (one left behind) still answers, flagged,
    /// so the assistant can say it may be out of date; one far above is flagged high; ingest warns.
    @Test func lookup_flagsPricesFarFromTheirRetailersMedian() throws {
        let stack = try DataPathStack()
        let file = try stack.writeFeed(FeedFixtures.feed(FeedFixtures.outliers), name: "mfg")
        let reply = try stack.ingestFile(file, retailer: "mfg")
        #expect(reply.warningsByKind["price_outlier"] == 2)
        try stack.waitForLookupVersion(reply.version)

        let answer = try cheapestB7(stack)
        #expect(answer.results.map(\.station.id) == ["mfg/stuck", "mfg/a", "mfg/b", "mfg/c", "mfg/motorway"])
        #expect(answer.results.map(\.priceOutlier) == [.low, nil, nil, nil, .high])
        #expect(answer.results.first?.pricePence == 119.9)
        let nearest = try stack.lookupClient().call(.lookupNearest,
            LookupRequest(fuel: "E10", lat: 53.7800, lng: -1.0700, radiusMiles: 5, limit: 5), as: LookupReply.self)
        #expect(nearest.results.first?.station.id == "mfg/stuck")
        #expect(nearest.results.first?.priceOutlier == nil, "its unleaded is not an outlier")
        #expect(nearest.results.contains { $0.station.id == "mfg/motorway" && $0.priceOutlier == nil },
                "199.9p is 27p above the unleaded median of 172.9p")
        let stuck = try stack.lookupClient().call(.stationGet, StationGetRequest(id: "mfg/stuck"), as: StationGetReply.self)
        #expect(stuck.priceOutliers == ["B7": .low])
        let usual = try stack.lookupClient().call(.stationGet, StationGetRequest(id: "mfg/a"), as: StationGetReply.self)
        #expect(usual.priceOutliers == nil)
    }

    @Test func ingest_whenFeedFailsToParse_changesNothingStored() throws {
        let stack = try DataPathStack(startLookup: false)
        let good = try stack.writeFeed(FeedFixtures.feed(FeedFixtures.selby), name: "tesco")
        let first = try stack.ingestFile(good, retailer: "tesco")
        let client = try stack.ingestClient()
        for garbage in [#"{"stations": 5}"#, #"[1,2,3]"#, #"{"last_updated": "01/01/2026 00:00:00"}"#] {
            let data = try client.callRaw(MessageType.ingestFeed.rawValue,
                                          rawBody: Data(#"{"retailer":"tesco","feed":\#(garbage)}"#.utf8))
            let reply = try JSONCoding.makeDecoder().decode(Reply<IngestFeedReply>.self, from: data)
            #expect(reply.ok == false)
            #expect(reply.error?.code == .badRequest)
        }
        let snapshot = try client.call(.ingestSnapshot, SnapshotRequest(retailer: "tesco"), as: SnapshotReply.self)
        #expect(snapshot.version == first.version)
        #expect(snapshot.state?.stations.count == 4)
    }

    @Test func priceIngest_whenKilledWithSIGKILL_keepsEverythingAcknowledged() throws {
        let stack = try DataPathStack(startLookup: false)
        let file = try stack.writeFeed(FeedFixtures.feed(FeedFixtures.selby), name: "tesco")
        let acknowledged = try stack.ingestFile(file, retailer: "tesco")
        let other = try stack.ingestFile(file, retailer: "asda")
        try stack.ingest.kill()
        try stack.restartIngest()
        let client = try stack.ingestClient()
        let index = try client.call(.ingestSnapshot, SnapshotRequest(), as: SnapshotReply.self)
        #expect(index.version == other.version)
        #expect(Set(index.retailers?.map(\.retailer) ?? []) == ["asda", "tesco"])
        let tesco = try client.call(.ingestSnapshot, SnapshotRequest(retailer: "tesco"), as: SnapshotReply.self)
        #expect(tesco.state?.version == acknowledged.version)
        #expect(tesco.state?.stations.map(\.id).sorted() == ["tesco/cheap", "tesco/dear", "tesco/nowhere", "tesco/sentinel"])
    }

    @Test func lookup_whenStartedAfterFeedsWereIngested_catchesUpFromSnapshot() throws {
        let stack = try DataPathStack(startLookup: false)
        let file = try stack.writeFeed(FeedFixtures.feed(FeedFixtures.selby), name: "tesco")
        let reply = try stack.ingestFile(file, retailer: "tesco")
        try stack.startLookup()
        try stack.waitForLookupVersion(reply.version)
        #expect(try cheapestB7(stack).results.first?.station.id == "tesco/cheap")
    }

    @Test func lookup_whenPriceIngestRestartsAndIngestsMore_followsIt() throws {
        let stack = try DataPathStack()
        let file = try stack.writeFeed(FeedFixtures.feed(FeedFixtures.selby), name: "tesco")
        let first = try stack.ingestFile(file, retailer: "tesco")
        try stack.waitForLookupVersion(first.version)
        let status = try stack.ingest.terminate()
        #expect(status == 0, "price-ingest log:\n\(stack.ingest.log)")
        try stack.restartIngest()
        var cheaper = FeedFixtures.selby
        cheaper[1].prices["B7"] = 129.9
        let second = try stack.ingestFile(try stack.writeFeed(FeedFixtures.feed(cheaper), name: "jet"),
                                          retailer: "tesco")
        #expect(second.version == first.version + 1)
        try stack.waitForLookupVersion(second.version)
        let answer = try cheapestB7(stack)
        #expect(answer.results.first?.station.id == "tesco/dear")
        #expect(answer.results.first?.pricePence == 129.9)
    }

    @Test func lookup_whenRequestOutOfBounds_repliesBadRequest() throws {
        let stack = try DataPathStack()
        let client = try stack.lookupClient()
        let bad: [LookupRequest] = [
            LookupRequest(fuel: "B7", lat: 53.7, lng: -1.0, radiusMiles: 0),
            LookupRequest(fuel: "B7", lat: 53.7, lng: -1.0, radiusMiles: 500),
            LookupRequest(fuel: "B7", lat: 53.7, lng: -1.0, radiusMiles: 5, limit: 0),
            LookupRequest(fuel: "B7", lat: 53.7, lng: -1.0, radiusMiles: 5, limit: 1000),
            LookupRequest(fuel: "LPG", lat: 53.7, lng: -1.0),
            LookupRequest(fuel: "B7", lat: 91, lng: -1.0),
            LookupRequest(fuel: nil, lat: 53.7, lng: -1.0),
        ]
        for request in bad {
            do {
                _ = try client.call(.lookupCheapest, request, as: LookupReply.self)
                Issue.record("accepted \(request)")
            } catch {
                #expect(error.code == .badRequest)
            }
        }
        #expect(try client.call(.sysPing, EmptyBody(), as: PingBody.self).service == "fuel-lookup")
    }
}

extension DataPathTests {
    /// An operator restores price-ingest's store from an older copy: the replica follows it down
    /// (instead of waiting for the version to pass the old one) and then follows new ingests.
    @Test func lookup_whenPriceIngestIsRestoredFromAnOlderStore_followsIt() throws {
        let stack = try DataPathStack()
        let file = try stack.writeFeed(FeedFixtures.feed(FeedFixtures.selby), name: "tesco")
        let first = try stack.ingestFile(file, retailer: "tesco")
        try stack.ingest.kill()
        let store = stack.dataDirectory.appendingPathComponent("price-ingest.sqlite")
        let backup = stack.dataDirectory.appendingPathComponent("backup")
        try FileManager.default.createDirectory(at: backup, withIntermediateDirectories: true)
        // A cold copy, as deploy/README says: the file and its -wal (never the -shm, SQLite's
        // index of the -wal, rebuilt on open).
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: store.path + suffix) {
            try FileManager.default.copyItem(atPath: store.path + suffix,
                                             toPath: backup.appendingPathComponent("price-ingest.sqlite" + suffix).path)
        }
        try stack.restartIngest()
        var cheaper = FeedFixtures.selby
        cheaper[1].prices["B7"] = 129.9
        let second = try stack.ingestFile(try stack.writeFeed(FeedFixtures.feed(cheaper), name: "tesco"),
                                          retailer: "tesco")
        _ = try stack.ingestFile(try stack.writeFeed(FeedFixtures.feed(cheaper), name: "asda"), retailer: "asda")
        try stack.waitForLookupVersion(second.version + 1)
        #expect(try cheapestB7Price(stack) == 129.9)

        // Restore the older store (version 1, tesco only, 139.9 cheapest) and restart.
        let beforeRestore = stack.lookup?.logLength ?? 0
        try stack.ingest.kill()
        for suffix in ["", "-wal", "-shm"] {
            try? FileManager.default.removeItem(atPath: store.path + suffix)  // the -shm is not put back
            let saved = backup.appendingPathComponent("price-ingest.sqlite" + suffix).path
            if FileManager.default.fileExists(atPath: saved) { try FileManager.default.copyItem(atPath: saved, toPath: store.path + suffix) }
        }
        try stack.restartIngest()
        try stack.lookup?.waitForLog(timeout: .seconds(20), after: beforeRestore) { line in
            line.contains("index swapped") && line.hasSuffix("version=\(first.version)")
        }
        #expect(try cheapestB7Price(stack) == 139.9)

        // And it follows what comes next.
        let beforeNext = stack.lookup?.logLength ?? 0
        let next = try stack.ingestFile(try stack.writeFeed(FeedFixtures.feed(cheaper), name: "tesco"),
                                        retailer: "tesco")
        #expect(next.version == first.version + 1)
        try stack.lookup?.waitForLog(timeout: .seconds(20), after: beforeNext) { line in
            line.contains("index swapped") && line.hasSuffix("version=\(next.version)")
        }
        #expect(try cheapestB7Price(stack) == 129.9)
    }

    /// A whole volume restored (the served mark with the store, so price-ingest keeps its id) while
    /// the replica is away: its next ingest reuses a version the replica holds for other prices.
    /// The replica kept those for good; it now reloads everything when the version goes back.
    @Test func lookup_whenPriceIngestsWholeVolumeIsRestored_reloadsWithoutARestart() throws {
        let stack = try DataPathStack()
        let lookup = try #require(stack.lookup)
        let first = try stack.ingestFile(try stack.writeFeed(FeedFixtures.feed(FeedFixtures.selby), name: "tesco"),
                                         retailer: "tesco")
        try stack.ingest.kill()
        let backup = stack.dataDirectory.appendingPathComponent("volume-backup")
        try FileManager.default.createDirectory(at: backup, withIntermediateDirectories: true)
        let files = ["price-ingest.sqlite", "price-ingest.sqlite-wal", "price-ingest.served"]
        for name in files where FileManager.default.fileExists(atPath: stack.dataDirectory.appendingPathComponent(name).path) {
            try FileManager.default.copyItem(at: stack.dataDirectory.appendingPathComponent(name),
                                             to: backup.appendingPathComponent(name))
        }
        try stack.restartIngest()
        var cheaper = FeedFixtures.selby
        cheaper[1].prices["B7"] = 129.9
        _ = try stack.ingestFile(try stack.writeFeed(FeedFixtures.feed(cheaper), name: "tesco"), retailer: "tesco")
        let third = try stack.ingestFile(try stack.writeFeed(FeedFixtures.feed(cheaper), name: "asda"), retailer: "asda")
        try stack.waitForLookupVersion(third.version)

        // The replica paused (a slow node) while the volume is restored and a new feed comes in.
        #expect(Glibc.kill(lookup.pid, SIGSTOP) == 0)
        try stack.ingest.kill()
        for name in files + ["price-ingest.sqlite-shm"] {
            try? FileManager.default.removeItem(at: stack.dataDirectory.appendingPathComponent(name))
            let saved = backup.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: saved.path) {
                try FileManager.default.copyItem(at: saved, to: stack.dataDirectory.appendingPathComponent(name))
            }
        }
        try stack.restartIngest()
        var newest = FeedFixtures.selby
        newest[1].prices["B7"] = 119.9
        let reused = try stack.ingestFile(try stack.writeFeed(FeedFixtures.feed(newest), name: "tesco"), retailer: "tesco")
        #expect(reused.version == first.version + 1, "the restored store counts on from its own version")
        let beforeWake = lookup.logLength
        #expect(Glibc.kill(lookup.pid, SIGCONT) == 0)
        try lookup.waitForLog(timeout: .seconds(20), after: beforeWake) { line in
            line.contains("index swapped") && line.hasSuffix("version=\(reused.version)")
        }
        #expect(try cheapestB7Price(stack) == 119.9)
    }

    /// As above, but the restored store counts on to the very version the paused replica holds, with
    /// other prices: the replica took itself for in step and kept the old prices for good (operator
    /// QA). Each stored feed's fingerprint now goes with its version, so it reloads them.
    @Test func lookup_whenARestoredVolumeReachesTheReplicasVersionWithOtherFeeds_reloadsThem() throws {
        let stack = try DataPathStack()
        let lookup = try #require(stack.lookup)
        _ = try stack.ingestFile(try stack.writeFeed(FeedFixtures.feed(FeedFixtures.selby), name: "tesco"),
                                 retailer: "tesco")
        try stack.ingest.kill()
        let backup = stack.dataDirectory.appendingPathComponent("volume-backup")
        try FileManager.default.createDirectory(at: backup, withIntermediateDirectories: true)
        let files = ["price-ingest.sqlite", "price-ingest.sqlite-wal", "price-ingest.served"]
        for name in files where FileManager.default.fileExists(atPath: stack.dataDirectory.appendingPathComponent(name).path) {
            try FileManager.default.copyItem(at: stack.dataDirectory.appendingPathComponent(name),
                                             to: backup.appendingPathComponent(name))
        }
        try stack.restartIngest()
        var cheaper = FeedFixtures.selby
        cheaper[1].prices["B7"] = 129.9
        let held = try stack.ingestFile(try stack.writeFeed(FeedFixtures.feed(cheaper), name: "asda"), retailer: "asda")
        try stack.waitForLookupVersion(held.version)
        #expect(try cheapestB7Price(stack) == 129.9)

        // The replica paused while the volume is restored and another feed comes in at its version.
        #expect(Glibc.kill(lookup.pid, SIGSTOP) == 0)
        try stack.ingest.kill()
        for name in files + ["price-ingest.sqlite-shm"] {
            try? FileManager.default.removeItem(at: stack.dataDirectory.appendingPathComponent(name))
            let saved = backup.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: saved.path) {
                try FileManager.default.copyItem(at: saved, to: stack.dataDirectory.appendingPathComponent(name))
            }
        }
        try stack.restartIngest()
        var newest = FeedFixtures.selby
        newest[1].prices["B7"] = 119.9
        let reused = try stack.ingestFile(try stack.writeFeed(FeedFixtures.feed(newest), name: "asda"), retailer: "asda")
        #expect(reused.version == held.version, "the restored store reached the replica's version")
        let beforeWake = lookup.logLength
        #expect(Glibc.kill(lookup.pid, SIGCONT) == 0)
        try lookup.waitForLog(timeout: .seconds(20), after: beforeWake) { line in
            line.contains("index swapped") && line.hasSuffix("version=\(reused.version)")
        }
        #expect(try cheapestB7Price(stack) == 119.9)
    }

    private func cheapestB7Price(_ stack: DataPathStack) throws -> Double? {
        let point = FeedFixtures.selbyPoint
        return try stack.lookupClient().call(.lookupCheapest,
            LookupRequest(fuel: "B7", lat: point.lat, lng: point.lng, radiusMiles: 5), as: LookupReply.self)
            .results.first?.pricePence
    }
}
