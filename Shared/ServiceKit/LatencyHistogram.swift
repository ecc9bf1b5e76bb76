/// Latency distribution in log-linear buckets (HDR-style, ~3% precision), constant memory.
public struct LatencyHistogram: Sendable {
    /// Sub-buckets per power of two.
    private static let subBuckets = 32
    private var counts: [UInt64]
    public private(set) var count: UInt64 = 0
    public private(set) var sumMicroseconds: Double = 0
    public private(set) var maxMicroseconds: Double = 0

    public init() {
        counts = Array(repeating: 0, count: 64 * LatencyHistogram.subBuckets)
    }

    /// Records one value in microseconds.
    public mutating func record(microseconds: Double) {
        let value = max(0, microseconds)
        counts[Self.bucket(for: value)] += 1
        count += 1
        sumMicroseconds += value
        maxMicroseconds = max(maxMicroseconds, value)
    }

    /// Moves one value recorded as `old` to `new` (a request counted at its timeout whose reply
    /// came later, at its real latency); records `new` alone when no `old` is there.
    public mutating func replace(microseconds old: Double, with new: Double) {
        let bucket = Self.bucket(for: max(0, old))
        if counts[bucket] > 0 {
            counts[bucket] -= 1
            count -= 1
            sumMicroseconds -= max(0, old)
        }
        record(microseconds: new)
    }

    /// Forgets every value, keeping the storage.
    public mutating func reset() {
        for index in counts.indices { counts[index] = 0 }
        count = 0
        sumMicroseconds = 0
        maxMicroseconds = 0
    }

    public mutating func merge(_ other: LatencyHistogram) {
        for index in counts.indices { counts[index] += other.counts[index] }
        count += other.count
        sumMicroseconds += other.sumMicroseconds
        maxMicroseconds = max(maxMicroseconds, other.maxMicroseconds)
    }

    /// The value at quantile `q` (0...1), as the upper edge of its bucket, capped by the max.
    public func quantile(_ q: Double) -> Double {
        guard count > 0 else { return 0 }
        let rank = UInt64((q * Double(count)).rounded(.up))
        var seen: UInt64 = 0
        for (index, bucketCount) in counts.enumerated() where bucketCount > 0 {
            seen += bucketCount
            if seen >= max(rank, 1) { return min(Self.upperEdge(of: index), maxMicroseconds) }
        }
        return maxMicroseconds
    }

    public var meanMicroseconds: Double { count == 0 ? 0 : sumMicroseconds / Double(count) }

    /// Values below 1 µs share bucket 0; above, 32 linear sub-buckets per power of two.
    static func bucket(for microseconds: Double) -> Int {
        let scaled = UInt64(min(microseconds * 8, Double(UInt64.max / 2)))  // 1/8 µs resolution
        guard scaled >= UInt64(subBuckets) else { return Int(scaled) }
        let exponent = 63 - scaled.leadingZeroBitCount  // >= 5
        let shift = exponent - 5
        let sub = Int(scaled >> UInt64(shift)) - subBuckets  // 0..<32
        return min((shift + 1) * subBuckets + sub, 64 * subBuckets - 1)
    }

    static func upperEdge(of bucket: Int) -> Double {
        if bucket < subBuckets { return Double(bucket + 1) / 8 }
        let shift = bucket / subBuckets - 1
        let sub = bucket % subBuckets
        return Double((UInt64(subBuckets + sub + 1)) << UInt64(shift)) / 8
    }
}
