import Messages

/// Which of a station's prices are outliers (`PriceOutlier`), two bits per fuel slot of
/// `IndexContents.fuels`: one byte, kept in the padding of a `StationRecord`.
struct PriceOutlierFlags: Sendable, Equatable {
    private var bits: UInt8 = 0

    static let none = PriceOutlierFlags()

    subscript(slot: Int) -> PriceOutlier? {
        get {
            switch bits >> UInt8(2 * slot) & 0b11 {
            case 0b01: .low
            case 0b10: .high
            default: nil
            }
        }
        set {
            let shift = UInt8(2 * slot)
            bits &= ~(0b11 << shift)
            switch newValue {
            case .low?: bits |= 0b01 << shift
            case .high?: bits |= 0b10 << shift
            case nil: break
            }
        }
    }
}

/// The median price of each fuel in each retailer's feed, over every station of the input (as
/// price-ingest measured it when it warned of `price_outlier`), to flag the outliers of each.
struct RetailerMedians {
    /// Retailer -> median per fuel slot (nil: too few prices for a median).
    private var medians: [String: [Int32?]] = [:]

    init(_ input: StationGroups) {
        var pricesByRetailer: [String: [[Int32]]] = [:]
        let fuels = IndexContents.fuels
        for station in input {
            for (fuel, price) in station.prices {
                pricesByRetailer[station.retailer, default: Array(repeating: [], count: fuels.count)][fuel.slot]
                    .append(price.tenths)
            }
        }
        for (retailer, slots) in pricesByRetailer {
            medians[retailer] = slots.map { values in
                var values = values
                return PriceOutlier.median(sorting: &values)
            }
        }
    }

    /// The outlier flags of `station`'s prices.
    func flags(of station: Station) -> PriceOutlierFlags {
        guard let slots = medians[station.retailer] else { return .none }
        var flags = PriceOutlierFlags.none
        for (fuel, price) in station.prices {
            guard let median = slots[fuel.slot] else { continue }
            flags[fuel.slot] = PriceOutlier.judge(price.tenths, median: median)
        }
        return flags
    }
}
