/// A price far from what the rest of its retailer's feed charges for the same fuel: more than 30.0p
/// below the median or 35.0p above it. A low one is usually a price the retailer stopped updating
/// (DATA.md: MFG's super diesel stuck at 159.9p while the median was 199.9p), which would otherwise
/// win "cheapest" unremarked; a high one is usually real (a motorway site, +36p).
///
/// Low is the tighter bound because it is the one an answer leans on: in the real feeds no
/// healthy price is even 25p under its feed's median, while MFG's August 2026 feed has its stuck
/// diesels at 35.0p under (147.9p against 182.9p), which a 35p bound would let through.
///
/// price-ingest warns of them (`price_outlier`); fuel-lookup flags them in its answers
/// (`priceOutlier`) and the assistant says so. Prices are never dropped for it: the feed said them.
public enum PriceOutlier: String, Codable, Sendable, CaseIterable {
    case low
    case high

    /// How far under the median a price may be before it is a low outlier (30.0p).
    public static let lowGapTenths: Int32 = 300
    /// How far over the median a price may be before it is a high outlier (35.0p).
    public static let highGapTenths: Int32 = 350
    /// A fuel's median is only taken over at least this many prices.
    public static let minimumForMedian = 3

    /// Whether `price` is an outlier against `median`, and which way.
    @inlinable
    public static func judge(_ price: Int32, median: Int32) -> PriceOutlier? {
        price < median - lowGapTenths ? .low : price > median + highGapTenths ? .high : nil
    }

    /// The median (lower middle for even counts) of `values`, or nil with fewer than
    /// `minimumForMedian`. Sorts `values` in place.
    public static func median(sorting values: inout [Int32]) -> Int32? {
        guard values.count >= minimumForMedian else { return nil }
        values.sort()
        return values[(values.count - 1) / 2]
    }

    /// The median price of each fuel over `stations` (one retailer's feed).
    public static func medians(of stations: [Station]) -> [FuelCode: Int32] {
        var byFuel: [FuelCode: [Int32]] = [:]
        for station in stations {
            for (fuel, price) in station.prices { byFuel[fuel, default: []].append(price.tenths) }
        }
        return byFuel.reduce(into: [:]) { medians, entry in
            var values = entry.value
            medians[entry.key] = median(sorting: &values)
        }
    }
}
