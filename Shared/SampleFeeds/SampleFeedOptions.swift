import Foundation

/// What to generate. The same options always give byte-identical output.
public struct SampleFeedOptions: Sendable, Hashable {
    /// Total stations over all feeds (exact).
    public var stations: Int
    public var seed: UInt64
    /// The moment the feeds describe: each feed's `last_updated` is its retailer's last publication
    /// at or before this time, in UK local time.
    public var asOf: Date
    /// Plant the real feeds' defects (sentinel prices, `0,0`, padded ids...). When on, every kind of
    /// quirk appears at least once (if the feeds are big enough), plus about `quirkRate` of stations.
    public var quirks: Bool
    /// Share of stations, 0...1, given one random quirk when `quirks` is on.
    public var quirkRate: Double
    /// No feed holds more stations than this; beyond it, stations go to synthetic `group-NNN` retailers.
    public var maxStationsPerFeed: Int

    /// Largest station count accepted.
    public static let maximumStations = 20_000_000
    /// 09/10/2025 12:00 UTC, the day of the real snapshot: the default `asOf`, so defaults are reproducible.
    public static let referenceDate = Date(timeIntervalSince1970: 1_760_011_200)

    public init(stations: Int = 3_000, seed: UInt64 = 1, asOf: Date = referenceDate, quirks: Bool = false,
                quirkRate: Double = 0.01, maxStationsPerFeed: Int = 10_000) {
        self.stations = stations
        self.seed = seed
        self.asOf = asOf
        self.quirks = quirks
        self.quirkRate = quirkRate
        self.maxStationsPerFeed = maxStationsPerFeed
    }

    /// The README demo: a few thousand stations, quirks on.
    public static func demo(stations: Int = 3_000, seed: UInt64 = 2025, asOf: Date = referenceDate)
        -> SampleFeedOptions {
        SampleFeedOptions(stations: stations, seed: seed, asOf: asOf, quirks: true)
    }

    /// Scale tests: clean data, as many stations as asked.
    public static func scale(stations: Int, seed: UInt64 = 1, asOf: Date = referenceDate) -> SampleFeedOptions {
        SampleFeedOptions(stations: stations, seed: seed, asOf: asOf, quirks: false)
    }

    /// Throws when a value is out of range.
    func validate() throws(SampleFeedError) {
        guard (0...Self.maximumStations).contains(stations) else {
            throw .invalidOptions("stations must be between 0 and \(Self.maximumStations), got \(stations)")
        }
        guard quirkRate.isFinite, (0...1).contains(quirkRate) else {
            throw .invalidOptions("quirkRate must be between 0 and 1, got \(quirkRate)")
        }
        guard maxStationsPerFeed >= 1 else {
            throw .invalidOptions("maxStationsPerFeed must be at least 1, got \(maxStationsPerFeed)")
        }
        let seconds = asOf.timeIntervalSince1970
        guard seconds.isFinite, (86_400.0...253_402_214_400.0).contains(seconds) else {
            throw .invalidOptions("asOf must be between 1970-01-02 and 9999-12-31")
        }
    }
}

/// Why sample feeds could not be generated or written.
public enum SampleFeedError: Error, Sendable, Hashable, CustomStringConvertible {
    case invalidOptions(String)
    /// `<path>: <why>`, as `FileErrorText` says it.
    case writeFailed(String)

    public var description: String {
        switch self {
        case .invalidOptions(let reason): "invalid sample feed options: \(reason)"
        case .writeFailed(let problem): "could not write \(problem)"
        }
    }
}

/// One generated feed file.
public struct GeneratedFeed: Sendable, Hashable {
    /// The retailer slug (`asda`, `group-007`); the file is `<retailer>.json`.
    public let retailer: String
    public let stationCount: Int
    /// The feed body: compact JSON in the CMA envelope, one station per line.
    public let json: Data
    /// The feed's `last_updated` as an instant.
    public let lastUpdated: Date
    /// How many stations carry each planted quirk.
    public let quirkCounts: [SampleQuirk: Int]
}
