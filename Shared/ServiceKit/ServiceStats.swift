import Foundation
import Messages

/// What `sys.stats` reports for every service: requests, errors by code, latency summary.
public struct ServiceStats: Sendable {
    public private(set) var requests: UInt64 = 0
    /// Requests counted per slot, one slot per type (`slot(for:)`); slot 0 is `other`.
    private var typeNames = ["other"]
    private var typeCounts: [UInt64] = [0]
    public private(set) var errorsByCode: [String: UInt64] = [:]
    public private(set) var latency = LatencyHistogram()
    /// The same over the last one to two minutes.
    public private(set) var recentLatency = RecentLatency()
    public let startedAt = Date()

    public init() {}

    /// Requests by type (types with at least one request).
    public var requestsByType: [String: UInt64] {
        var byType: [String: UInt64] = [:]
        for (name, count) in zip(typeNames, typeCounts) where count > 0 { byType[name, default: 0] += count }
        return byType
    }

    /// The slot that counts `type`, added on first use: a server takes one per type it serves,
    /// so recording a request needs no hashing.
    public mutating func slot(for type: String) -> Int {
        if let slot = typeNames.firstIndex(of: type) { return slot }
        typeNames.append(type)
        typeCounts.append(0)
        return typeNames.count - 1
    }

    /// Records one answered request in `slot` (0 for a type nobody serves, so a flood of junk
    /// types cannot grow the table), answered at `now` (monotonic nanoseconds).
    public mutating func record(slot: Int, error: ErrorCode?, microseconds: Double, now: UInt64) {
        requests += 1
        typeCounts[typeCounts.indices.contains(slot) ? slot : 0] += 1
        if let error { errorsByCode[error.rawValue, default: 0] += 1 }
        latency.record(microseconds: microseconds)
        recentLatency.record(microseconds: microseconds, now: now)
    }

    /// Records a frame that carried other requests (`sys.batch`): under its type and its error,
    /// if any, but not as a request nor in the latency, which stay those of the requests in it.
    public mutating func recordCarrier(slot: Int, error: ErrorCode?) {
        typeCounts[typeCounts.indices.contains(slot) ? slot : 0] += 1
        if let error { errorsByCode[error.rawValue, default: 0] += 1 }
    }

    /// The `sys.stats` reply body as of `now` (monotonic nanoseconds).
    public func snapshot(service: String, extra: [String: JSONValue], now: UInt64) -> StatsBody {
        let recent = recentLatency.snapshot(now: now)
        return StatsBody(
            service: service,
            uptimeSeconds: Date().timeIntervalSince(startedAt),
            requests: requests,
            requestsByType: requestsByType,
            errorsByCode: errorsByCode,
            latencyMicroseconds: .init(latency),
            recentLatencyMicroseconds: .init(recent.histogram, windowSeconds: (recent.seconds * 10).rounded() / 10),
            details: extra.merging(["memory": .object(ProcessMemory.statsDetails)]) { own, _ in own })
    }
}

/// `sys.stats` reply body.
public struct StatsBody: Codable, Sendable {
    public struct Latency: Codable, Sendable {
        public var count: UInt64
        public var mean: Double
        public var p50: Double
        public var p90: Double
        public var p99: Double
        public var max: Double
        /// The seconds the figures cover, for the recent ones (the last one to two minutes).
        public var windowSeconds: Double?

        public init(_ histogram: LatencyHistogram, windowSeconds: Double? = nil) {
            (count, mean, max) = (histogram.count, histogram.meanMicroseconds, histogram.maxMicroseconds)
            (p50, p90, p99) = (histogram.quantile(0.5), histogram.quantile(0.9), histogram.quantile(0.99))
            self.windowSeconds = windowSeconds
        }
    }

    public var service: String
    public var uptimeSeconds: Double
    public var requests: UInt64
    public var requestsByType: [String: UInt64]
    public var errorsByCode: [String: UInt64]
    /// Handling latency since the service started.
    public var latencyMicroseconds: Latency
    /// The same over the last one to two minutes (`windowSeconds`); absent from older services.
    public var recentLatencyMicroseconds: Latency?
    /// Service-specific figures (feed status for price-ingest, index size for fuel-lookup...).
    public var details: [String: JSONValue]
}

/// `sys.ping` reply body.
public struct PingBody: Codable, Sendable {
    public var service: String
    public var version: String
    public var pid: Int32

    public init(service: String, version: String, pid: Int32) {
        self.service = service
        self.version = version
        self.pid = pid
    }
}

/// The project's version, reported by `sys.ping` and `--version`.
public let fuelboardVersion = "0.1.0"
