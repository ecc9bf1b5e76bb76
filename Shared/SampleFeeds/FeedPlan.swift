/// One feed to generate: which retailer, how many stations, and the seed of its random stream.
public struct FeedPlan: Sendable {
    /// Position in the output (also the random stream number).
    public let index: Int
    /// The retailer slug, used as the file name (`asda` -> `asda.json`).
    public let retailer: String
    public let stationCount: Int
    let profile: RetailerProfile
    let seed: UInt64
}

/// Splits a station count between retailers: real retailers in proportion to their real size,
/// each capped at `maxStationsPerFeed`, the overflow shared by synthetic `group-NNN` retailers.
enum FeedPlanner {
    static func plan(stations: Int, maxStationsPerFeed cap: Int, seed: UInt64) -> [FeedPlan] {
        guard stations > 0 else { return [] }
        let profiles = RetailerCatalogue.real
        let shares = largestRemainder(total: stations, weights: profiles.map(\.weight))
        var entries = zip(profiles, shares).map { (profile: $0, count: min($1, cap)) }
        let overflow = stations - entries.reduce(0) { $0 + $1.count }
        if overflow > 0 {
            let groupCount = (overflow + cap - 1) / cap
            for number in 1...groupCount {
                let count = overflow / groupCount + (number <= overflow % groupCount ? 1 : 0)
                entries.append((RetailerCatalogue.syntheticGroup(number: number, seed: seed), count))
            }
        }
        return entries.filter { $0.count > 0 }.enumerated().map { index, entry in
            FeedPlan(index: index, retailer: entry.profile.slug, stationCount: entry.count,
                     profile: entry.profile, seed: SplitMix64.derive(seed, stream: UInt64(index) &+ 1))
        }
    }

    /// Integer shares of `total` in proportion to `weights`, summing exactly to `total`
    /// (largest remainder first; ties go to the earlier entry).
    static func largestRemainder(total: Int, weights: [Int]) -> [Int] {
        let weightSum = weights.reduce(0, +)
        guard weightSum > 0 else { return weights.map { _ in 0 } }
        var shares = weights.map { total * $0 / weightSum }
        let remainders = weights.map { total * $0 % weightSum }
        let missing = total - shares.reduce(0, +)
        let order = remainders.indices.sorted {
            remainders[$0] > remainders[$1] || (remainders[$0] == remainders[$1] && $0 < $1)
        }
        for index in order.prefix(missing) {
            shares[index] += 1
        }
        return shares
    }
}
