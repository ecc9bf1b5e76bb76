import Foundation
import Messages

/// What `sys.stats` reports for every service: requests, errors by code, latency summary.
public struct ServiceStats: Sendable {
    public private(set) var requests: UInt64 = 0
    public private(set) var requestsByType: [String: UInt64] = [:]
    public private(set) var errorsByCode: [String: UInt64] = [:]
    public private(set) var latency = LatencyHistogram()
    public let startedAt = Date()

    public init() {}

    /// Records one answered request. Unknown types are counted under `other` so a flood of junk
    /// types cannot grow the table without bound.
    public mutating func record(type: String, knownType: Bool, error: ErrorCode?, microseconds: Double) {
        requests += 1
        requestsByType[knownType ? type : "other", default: 0] += 1
        if let error { errorsByCode[error.rawValue, default: 0] += 1 }
        latency.record(microseconds: microseconds)
    }

    /// The `sys.stats` reply body.
    public func snapshot(service: String, extra: [String: JSONValue]) -> StatsBody {
        StatsBody(
            service: service,
            uptimeSeconds: Date().timeIntervalSince(startedAt),
            requests: requests,
            requestsByType: requestsByType,
            errorsByCode: errorsByCode,
            latencyMicroseconds: .init(count: latency.count, mean: latency.meanMicroseconds,
                                       p50: latency.quantile(0.5), p90: latency.quantile(0.9),
                                       p99: latency.quantile(0.99), max: latency.maxMicroseconds),
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
    }

    public var service: String
    public var uptimeSeconds: Double
    public var requests: UInt64
    public var requestsByType: [String: UInt64]
    public var errorsByCode: [String: UInt64]
    public var latencyMicroseconds: Latency
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
