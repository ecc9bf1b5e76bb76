/// SplitMix64 (Steele, Lea and Flood, 2014): one word of state. Used to seed `SeededRandom`
/// and to derive independent streams from one seed.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A seed for stream `stream` of `seed`: different streams give unrelated sequences.
    public static func derive(_ seed: UInt64, stream: UInt64) -> UInt64 {
        var outer = SplitMix64(seed: seed)
        var inner = SplitMix64(seed: outer.next() ^ (stream &* 0xD1B5_4A32_D192_ED03))
        return inner.next()
    }
}

/// xoshiro256** (Blackman and Vigna, 2018), seeded through SplitMix64.
///
/// The same seed gives the same sequence on every machine. The sampling helpers below use only
/// integer arithmetic and correctly rounded IEEE operations, never the standard library's
/// `random(in:using:)`, whose algorithm is not promised to stay the same across releases.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var s0: UInt64, s1: UInt64, s2: UInt64, s3: UInt64

    public init(seed: UInt64) {
        var seeder = SplitMix64(seed: seed)
        s0 = seeder.next(); s1 = seeder.next(); s2 = seeder.next(); s3 = seeder.next()
    }

    public mutating func next() -> UInt64 {
        let result = rotateLeft(s1 &* 5, 7) &* 9
        let shifted = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= shifted
        s3 = rotateLeft(s3, 45)
        return result
    }

    private func rotateLeft(_ value: UInt64, _ count: UInt64) -> UInt64 {
        (value << count) | (value >> (64 - count))
    }

    /// Uniform in `[0, 1)` from the top 53 bits.
    public mutating func unit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// Uniform in `0..<bound` without modulo bias (Lemire's multiply-and-reject). `bound` must be > 0.
    public mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0, "bound must be positive")
        let range = UInt64(bound)
        var product = next().multipliedFullWidth(by: range)
        if product.low < range {
            let threshold = (0 &- range) % range
            while product.low < threshold {
                product = next().multipliedFullWidth(by: range)
            }
        }
        return Int(product.high)
    }

    /// Uniform in `range` (both ends included).
    public mutating func integer(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + below(range.upperBound - range.lowerBound + 1)
    }

    /// Uniform in `[low, high)`.
    public mutating func uniform(_ low: Double, _ high: Double) -> Double {
        low + (high - low) * unit()
    }

    /// True with probability `probability`.
    public mutating func chance(_ probability: Double) -> Bool {
        unit() < probability
    }

    /// Roughly normal with mean 0 and standard deviation 1, bounded to about ±3.46
    /// (the sum of four uniforms, rescaled; no logarithms, so identical everywhere).
    public mutating func bell() -> Double {
        (unit() + unit() + unit() + unit() - 2) * 1.7320508075688772
    }

    /// One element of a non-empty array.
    public mutating func pick<Element>(_ items: [Element]) -> Element {
        items[below(items.count)]
    }

    /// A direction as a unit vector, uniform over the circle (rejection sampling, no trigonometry).
    public mutating func direction() -> (x: Double, y: Double) {
        while true {
            let x = uniform(-1, 1), y = uniform(-1, 1)
            let squared = x * x + y * y
            if squared > 0.0001 && squared <= 1 {
                let length = squared.squareRoot()
                return (x / length, y / length)
            }
        }
    }
}

/// Picks indices in proportion to fixed weights (cumulative sums and a binary search).
struct WeightedTable: Sendable {
    private let cumulative: [Double]

    /// `weights` must be non-empty with a positive sum; negative weights count as zero.
    init(_ weights: [Double]) {
        var running = 0.0
        cumulative = weights.map { weight in
            running += max(0, weight)
            return running
        }
    }

    var count: Int { cumulative.count }

    func pick(using random: inout SeededRandom) -> Int {
        let target = random.unit() * (cumulative.last ?? 0)
        var low = 0, high = cumulative.count - 1
        while low < high {
            let middle = (low + high) / 2
            if cumulative[middle] > target { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
