import Foundation
import Messages

/// A deterministic generator of realistic UK fuel-price feeds in the CMA open-data format.
///
/// Same options, same bytes, on every run and machine. Each feed has its own random stream, so
/// one feed can be generated without the others (`feed(at:)`) and `write(to:)` keeps only a few
/// feeds in memory at a time.
public struct SampleFeedGenerator: Sendable {
    public let options: SampleFeedOptions
    /// The feeds that will be generated, in output order.
    public let plan: [FeedPlan]
    private let world: SampleWorld
    private let builder: FeedBuilder
    /// Quirks each feed must carry at least once (feed index -> quirks), when quirks are on.
    private let guaranteedQuirks: [Int: [SampleQuirk]]

    public init(options: SampleFeedOptions) throws(SampleFeedError) {
        try options.validate()
        self.options = options
        plan = FeedPlanner.plan(stations: options.stations, maxStationsPerFeed: options.maxStationsPerFeed,
                                seed: options.seed)
        world = SampleWorld(seed: options.seed)
        builder = FeedBuilder(world: world, quirksEnabled: options.quirks, quirkRate: options.quirkRate)
        guaranteedQuirks = options.quirks ? QuirkCoverage.assign(to: plan) : [:]
    }

    /// The number of feeds.
    public var feedCount: Int { plan.count }

    /// Generates one feed.
    public func feed(at index: Int) -> GeneratedFeed {
        let (entry, records, updated) = build(at: index)
        let bytes = FeedJSONWriter.json(records: records, lastUpdated: updated.feedText,
                                        keyOrder: entry.profile.keyOrder)
        var quirkCounts: [SampleQuirk: Int] = [:]
        for case let quirk? in records.map(\.quirk) {
            quirkCounts[quirk, default: 0] += 1
        }
        return GeneratedFeed(retailer: entry.retailer, stationCount: records.count, json: Data(bytes),
                             lastUpdated: UKLocalTime.date(of: updated), quirkCounts: quirkCounts)
    }

    /// Generates every feed (all in memory: for large counts prefer `write(to:progress:)`).
    public func feeds() -> [GeneratedFeed] {
        plan.indices.map { feed(at: $0) }
    }

    /// The stations of one feed as price-ingest would store them (sentinels dropped, ids trimmed,
    /// `0,0` without a location, repeated site ids suffixed `#2`...), without parsing JSON.
    public func stations(inFeedAt index: Int) -> [Station] {
        let (entry, records, updated) = build(at: index)
        let updatedDate = UKLocalTime.date(of: updated)
        var seen: [String: Int] = [:]
        return records.map { record in
            seen[record.siteId, default: 0] += 1
            return record.station(retailer: entry.retailer, occurrence: seen[record.siteId] ?? 1,
                                  updated: updatedDate)
        }
    }

    /// The stations of every feed, in feed order.
    public func stations() -> [Station] {
        plan.indices.flatMap { stations(inFeedAt: $0) }
    }

    /// Writes `<retailer>.json` for every feed into `directory` (created if missing), generating
    /// a few feeds at a time on all cores. `progress` gets (stations written, total stations) on the
    /// calling thread after each batch. Returns the file URLs in plan order.
    public func write(to directory: URL, progress: ((Int, Int) -> Void)? = nil) throws -> [URL] {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw SampleFeedError.writeFailed(FileErrorText.describe(error, path: directory.path))
        }
        let batchSize = max(1, ProcessInfo.processInfo.activeProcessorCount)
        var urls: [URL] = []
        var written = 0
        for batchStart in stride(from: 0, to: plan.count, by: batchSize) {
            let batch = Array(batchStart..<min(batchStart + batchSize, plan.count))
            let outcomes = BatchOutcomes(count: batch.count)
            DispatchQueue.concurrentPerform(iterations: batch.count) { slot in
                let feed = self.feed(at: batch[slot])
                let url = directory.appendingPathComponent("\(feed.retailer).json")
                do {
                    try feed.json.write(to: url, options: .atomic)
                    outcomes.set(slot, .success(url))
                } catch {
                    outcomes.set(slot, .failure(.writeFailed(FileErrorText.describe(error, path: url.path))))
                }
            }
            for outcome in outcomes.all {
                urls.append(try outcome.get())
            }
            written += batch.reduce(0) { $0 + plan[$1].stationCount }
            progress?(written, options.stations)
        }
        return urls
    }

    private func build(at index: Int) -> (FeedPlan, [SiteRecord], UKLocalTime.WallTime) {
        let entry = plan[index]
        let records = builder.records(for: entry, guaranteed: guaranteedQuirks[index] ?? [])
        var clock = SeededRandom(seed: SplitMix64.derive(entry.seed, stream: 0x636C_6F63_6B))
        let drift = clock.integer(in: 0...max(0, entry.profile.schedule.driftSeconds))
        let updated = entry.profile.schedule.lastPublication(asOf: options.asOf, drift: drift)
        return (entry, records, updated)
    }
}

/// Results of one batch of concurrent feed writes, one slot per feed.
private final class BatchOutcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Result<URL, SampleFeedError>?]

    init(count: Int) {
        slots = Array(repeating: nil, count: count)
    }

    func set(_ slot: Int, _ outcome: Result<URL, SampleFeedError>) {
        lock.lock()
        defer { lock.unlock() }
        slots[slot] = outcome
    }

    var all: [Result<URL, SampleFeedError>] {
        lock.lock()
        defer { lock.unlock() }
        return slots.map { $0 ?? .failure(.writeFailed("a feed was not generated")) }
    }
}

/// Spreads the quirk kinds over the biggest feeds so each appears at least once when quirks are on.
enum QuirkCoverage {
    /// Feeds need a few stations to host a guaranteed quirk (a duplicate id needs a predecessor).
    static let minimumStations = 4

    static func assign(to plan: [FeedPlan]) -> [Int: [SampleQuirk]] {
        let hosts = plan.filter { $0.stationCount >= minimumStations }
            .sorted { $0.stationCount > $1.stationCount || ($0.stationCount == $1.stationCount && $0.index < $1.index) }
        guard !hosts.isEmpty else { return [:] }
        var assigned: [Int: [SampleQuirk]] = [:]
        var next = 0
        for quirk in SampleQuirk.allCases {
            for attempt in 0..<hosts.count {
                let host = hosts[(next + attempt) % hosts.count]
                if fits(quirk, host) {
                    assigned[host.index, default: []].append(quirk)
                    next = (next + attempt + 1) % hosts.count
                    break
                }
            }
        }
        return assigned
    }

    private static func fits(_ quirk: SampleQuirk, _ feed: FeedPlan) -> Bool {
        switch quirk {
        case .upperCaseAddress: !feed.profile.addressStyle.isUpperCase
        case .sentinelPrice, .floatNoisePrice: !feed.profile.allowsNoFuel
        default: true
        }
    }
}
