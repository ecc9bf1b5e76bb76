import Messages

/// Pump prices in tenths of a penny, from realistic spreads (October 2025 levels):
/// E10 about 127-151p (supermarkets cheaper), E5 8-12p over E10, B7 5-10p over E10,
/// SDV 15-25p over B7, motorway sites 20-30p dearer.
struct PriceMaker: Sendable {
    /// The national E10 reference, 133.9p.
    static let nationalE10 = 1339
    /// Bounds for E10 away from motorways, in tenths.
    static let e10Range = 1269...1509

    func prices(for profile: RetailerProfile, town: UKTown, kind: SiteKind,
                random: inout SeededRandom) -> [(fuel: FuelCode, tenths: Int32)] {
        var sold = profile.priceOrder.filter { random.chance(profile.fuels.chance(of: $0)) }
        if sold.isEmpty && !profile.allowsNoFuel, let first = profile.priceOrder.first {
            sold = [first]
        }
        var e10 = Self.nationalE10 + profile.priceOffsetTenths + regionalOffset(town, kind)
            + Int((random.bell() * 15).rounded())
        e10 = clamp(e10)
        e10 = clamp(e10 / 10 * 10 + ending(random: &random))
        if kind == .motorway {
            e10 += random.integer(in: 20...30) * 10
        }
        let e5 = e10 + random.integer(in: 8...12) * 10
        let b7 = e10 + random.integer(in: 5...10) * 10
        let sdv = b7 + random.integer(in: 15...25) * 10
        return sold.map { fuel in
            var tenths: Int
            switch fuel {
            case .e10: tenths = e10
            case .e5: tenths = e5
            case .b7: tenths = b7
            case .sdv: tenths = sdv
            }
            if random.chance(0.03) {
                tenths = (tenths + 5) / 10 * 10 // a round price such as 150
            }
            return (fuel, Int32(tenths))
        }
    }

    /// Pence region effects: London and the South East dearer, Northern Ireland cheaper,
    /// the Highlands and islands dearer, the countryside a little dearer.
    private func regionalOffset(_ town: UKTown, _ kind: SiteKind) -> Int {
        var offset = 0
        switch town.nation {
        case .northernIreland: offset -= 30
        case .scotland: offset += town.latitude > 56.6 ? 35 : 0
        case .wales: break
        case .england:
            if town.name == "London" {
                offset += 25
            } else if town.latitude < 52.2 && town.longitude > -1.6 {
                offset += 10
            } else if town.latitude > 53.3 {
                offset -= 5
            }
        }
        if town.edges.isIsland { offset += 80 }
        if kind == .rural { offset += 25 }
        return offset
    }

    /// The last digit: mostly .9, some .7 and .5, a few anything.
    private func ending(random: inout SeededRandom) -> Int {
        let roll = random.unit()
        if roll < 0.78 { return 9 }
        if roll < 0.88 { return 7 }
        if roll < 0.93 { return 5 }
        return random.below(10)
    }

    private func clamp(_ tenths: Int) -> Int {
        min(max(tenths, Self.e10Range.lowerBound), Self.e10Range.upperBound)
    }
}
