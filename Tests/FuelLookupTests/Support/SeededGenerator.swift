import Foundation
import SampleFeeds

/// SplitMix64 (from SampleFeeds): a small, fast, seedable generator so every random test is reproducible.
typealias SeededGenerator = SplitMix64

extension SplitMix64 {
    /// A normally distributed value (Box-Muller).
    mutating func gaussian() -> Double {
        let u = Double.random(in: Double.ulpOfOne ..< 1, using: &self)
        let v = Double.random(in: 0 ..< 1, using: &self)
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }
}
