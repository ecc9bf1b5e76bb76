import Foundation
import Messages
import ServiceKit
import ServiceTesting
import Testing
import ZeroMQ

/// fuel-lookup against a price-ingest that is not one: a snapshot server and a publisher in the
/// test, saying things a real one never would. The replica keeps serving whatever it is told.
@Suite(.serialized)
struct HostilePublisherTests {
    private static let station = Station(
        id: "fk/1", retailer: "fk", siteId: "1", brand: "JET", name: "Jet Selby", address: "Doncaster Road, Selby",
        postcode: "YO8 9EG", location: Coordinate(lat: 53.78, lng: -1.07), reportedLatitude: 53.78,
        reportedLongitude: -1.07, prices: [.b7: Price(tenths: 1399)], updated: Date(timeIntervalSince1970: 1_764_400_000))

    /// A fake price-ingest answering `ingest.snapshot` with `states` (by retailer) at `version`,
    /// listing `listed` (retailer and the version it claims).
    private static func snapshotServer(version: UInt64, listed: [(String, UInt64)],
                                       states: [String: RetailerState]) throws -> InProcessService {
        try InProcessService.start { context in
            let server = try ReplyServer(name: "price-ingest", context: context, bind: "tcp://127.0.0.1:*",
                                         logger: Logger(label: "fake", level: .critical))
            server.on(.ingestSnapshot, SnapshotRequest.self) { request, _ in
                guard let retailer = request.retailer else {
                    return SnapshotReply(version: version, retailers: listed.map {
                        SnapshotReply.Entry(retailer: $0.0, version: $0.1, stationCount: 1)
                    }, store: "fake")
                }
                return SnapshotReply(version: version, state: states[retailer], store: "fake")
            }
            return server
        }
    }

    private static func lookup(_ endpoint: String, lat: Double = 53.78, lng: Double = -1.07) throws -> LookupReply {
        let client = try RequestClient(context: Context(), endpoint: endpoint, timeout: .seconds(5), retries: 0)
        return try client.call(.lookupCheapest, LookupRequest(fuel: "B7", lat: lat, lng: lng, radiusMiles: 5, limit: 5),
                               as: LookupReply.self)
    }

    /// A publisher beside the fake `ingest`, and a fuel-lookup following both.
    private static func startLookup(_ ingest: InProcessService) throws -> (Socket, ServiceProcess) {
        let publisher = try Socket(ingest.context, .pub)
        let publishEndpoint = try publisher.bind("tcp://127.0.0.1:*")
        let lookup = try ServiceProcess("fuel-lookup", ["--ingest", ingest.endpoint, "--ingest-pub", publishEndpoint,
                                                        "--bind", "tcp://127.0.0.1:*"])
        return (publisher, lookup)
    }

    /// Publishes `frames` until `lookup` logs a line (after `offset`) that satisfies `predicate`: a
    /// subscriber misses what is sent before it joins. Returns the line, nil if it never came.
    private static func publish(_ frames: [Data], on publisher: Socket, until lookup: ServiceProcess, after offset: Int,
                                _ predicate: @escaping (String) -> Bool) throws -> String? {
        for _ in 0..<100 where lookup.isRunning {
            try publisher.send(frames)
            if let line = try? lookup.waitForLog(timeout: .milliseconds(100), after: offset, predicate) { return line }
        }
        return nil
    }

    /// Versions at the top of UInt64: an update at UInt64.max once the replica held UInt64.max
    /// trapped on `version + 1` and killed the process (fuzzing).
    @Test func anUpdateAtTheLargestVersion_isAppliedWithoutAnOverflow() throws {
        let top = UInt64.max
        let held = RetailerState(version: top, retailer: "fk", updated: Self.station.updated, stations: [Self.station])
        let ingest = try Self.snapshotServer(version: top, listed: [("fk", top)], states: ["fk": held])
        defer { ingest.stop() }
        let (publisher, lookup) = try Self.startLookup(ingest)
        defer { _ = try? lookup.terminate() }
        let endpoint = try lookup.endpoint()
        try lookup.waitForLog { $0.contains("synchronised from snapshot") && $0.contains("version=\(top)") }

        var other = Self.station
        other.id = "fk2/1"
        other.retailer = "fk2"
        other.location = Coordinate(lat: 51.5, lng: -0.12)
        let update = try JSONCoding.encode(RetailerState(version: top, retailer: "fk2", updated: other.updated,
                                                         stations: [other]))
        let swapped = try Self.publish([Data(PriceTopic.update.utf8), update], on: publisher, until: lookup,
                                       after: lookup.logLength) { $0.contains("index swapped") && $0.contains("stations=2") }
        #expect(lookup.isRunning, "fuel-lookup died: \(lookup.log.suffix(2000))")
        #expect(swapped != nil)
        #expect(try Self.lookup(endpoint, lat: 51.5, lng: -0.12).results.map(\.station.id) == ["fk2/1"])
        #expect(try Self.lookup(endpoint).results.map(\.station.id) == ["fk/1"])
    }

    /// Every resynchronisation logs why it came: two at start read as a fault without it.
    @Test func aResynchronisation_logsItsReason() throws {
        let held = RetailerState(version: 4, retailer: "fk", updated: Self.station.updated, stations: [Self.station])
        let ingest = try Self.snapshotServer(version: 4, listed: [("fk", 4)], states: ["fk": held])
        defer { ingest.stop() }
        let (publisher, lookup) = try Self.startLookup(ingest)
        defer { _ = try? lookup.terminate() }
        _ = try lookup.endpoint()
        try lookup.waitForLog { $0.contains("synchronised from snapshot") && $0.contains("reason=start") }

        let skipped = try JSONCoding.encode(RetailerState(version: 6, retailer: "fk", updated: Self.station.updated,
                                                          stations: [Self.station]))
        let line = try Self.publish([Data(PriceTopic.update.utf8), skipped], on: publisher, until: lookup,
                                    after: lookup.logLength) { $0.contains("synchronised from snapshot") }
        #expect(line?.contains("reason=\"missed updates: got version 6, held 4\"") == true, "\(line ?? "no line")")
    }

    /// A snapshot asked for one retailer that holds another's state is not held under that other
    /// name (it was indexed, and never removed since the index never lists it).
    @Test func aRetailerSnapshotHoldingAnotherRetailer_isNotServed() throws {
        var stray = Self.station
        stray.id = "zz/1"
        stray.retailer = "zz"
        let wrong = RetailerState(version: 3, retailer: "other", updated: stray.updated, stations: [stray])
        let right = RetailerState(version: 4, retailer: "fk", updated: Self.station.updated, stations: [Self.station])
        let ingest = try Self.snapshotServer(version: 4, listed: [("fk", 4), ("bad", 3)],
                                             states: ["fk": right, "bad": wrong])
        defer { ingest.stop() }
        let (publisher, lookup) = try Self.startLookup(ingest)
        defer { _ = try? lookup.terminate() }
        let endpoint = try lookup.endpoint()
        try lookup.waitForLog { $0.contains("retailer snapshot unreadable") && $0.contains("retailer=bad") }
        let beat = try JSONCoding.encode(PriceHeartbeat(version: 4, store: "fake"))
        #expect(try Self.publish([Data(PriceTopic.heartbeat.utf8), beat], on: publisher, until: lookup, after: 0) {
            $0.contains("index swapped")
        } != nil)
        #expect(try Self.lookup(endpoint).results.map(\.station.id) == ["fk/1"])
    }
}
