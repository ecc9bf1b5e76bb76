import Messages

/// The retailers of the CMA scheme as sample profiles, weighted by their real station counts.
enum RetailerCatalogue {
    private static let supermarket = PlacementMix(town: 0.97, rural: 0.03, motorway: 0)
    private static let forecourt = PlacementMix(town: 0.82, rural: 0.15, motorway: 0.03)
    private static let countryGroup = PlacementMix(town: 0.70, rural: 0.30, motorway: 0)
    private static let standardOrder: [FuelCode] = [.e10, .e5, .b7, .sdv]

    static let real: [RetailerProfile] = [
        RetailerProfile(
            slug: "mfg", weight: 1225, isSupermarket: false,
            brands: [BrandChoice("BP", 45), BrandChoice("ESSO", "Esso", 12), BrandChoice("Esso", 8),
                     BrandChoice("Texaco", 12), BrandChoice("Jet", "JET", 8), BrandChoice("Shell", 8),
                     BrandChoice("Morrisons", 4), BrandChoice("Murco", 2), BrandChoice("Valero", 1)],
            fuels: FuelOdds(e10: 1, e5: 0.99, b7: 1, sdv: 0.75), allowsNoFuel: false, priceOffsetTenths: 15,
            placement: forecourt, addressStyle: .groupPrefixed("MFG"), keyOrder: .standard,
            priceOrder: standardOrder, coordinateDecimals: 5...6, schedule: .daily(0, 0, 1)),
        RetailerProfile(
            slug: "asda", weight: 790, isSupermarket: true,
            brands: [BrandChoice("Asda", 40), BrandChoice("Asda Express", 45), BrandChoice("Esso", 5),
                     BrandChoice("Shell", 4), BrandChoice("Texaco", 3), BrandChoice("BP", 2),
                     BrandChoice("Valero", 1)],
            fuels: FuelOdds(e10: 1, e5: 0.6, b7: 1, sdv: 0.5), allowsNoFuel: false, priceOffsetTenths: -35,
            placement: supermarket, addressStyle: .streetTown, keyOrder: .standard,
            priceOrder: standardOrder, coordinateDecimals: 4...6, schedule: .daily(11, 0, 0)),
        RetailerProfile(
            slug: "shell", weight: 555, isSupermarket: false,
            brands: [BrandChoice("SHELL", "Shell", 1)],
            fuels: FuelOdds(e10: 1, e5: 0, b7: 1, sdv: 0), allowsNoFuel: false, priceOffsetTenths: 35,
            placement: forecourt, addressStyle: .upperStreetOnly, keyOrder: .standard,
            priceOrder: [.e10, .b7], coordinateDecimals: 6...6, schedule: .daily(0, 0, 0)),
        RetailerProfile(
            slug: "tesco", weight: 515, isSupermarket: true,
            brands: [BrandChoice("TESCO", "Tesco", 1)],
            fuels: FuelOdds(e10: 0.998, e5: 0.9, b7: 1, sdv: 0), allowsNoFuel: false, priceOffsetTenths: -25,
            placement: supermarket, addressStyle: .tescoNoCommas, keyOrder: .standard,
            priceOrder: [.e5, .e10, .b7], coordinateDecimals: 6...6, schedule: .daily(11, 18, 20, drift: 30)),
        RetailerProfile(
            slug: "morrisons", weight: 341, isSupermarket: true,
            brands: [BrandChoice("Morrisons", 1)],
            fuels: FuelOdds(e10: 1, e5: 0.5, b7: 1, sdv: 0), allowsNoFuel: false, priceOffsetTenths: -25,
            placement: supermarket, addressStyle: .streetTown, keyOrder: .longitudeFirst,
            priceOrder: standardOrder, coordinateDecimals: 6...6, schedule: .daily(10, 30, 0, drift: 30)),
        RetailerProfile(
            slug: "sainsburys", weight: 315, isSupermarket: true,
            brands: [BrandChoice("Sainsbury's", 1)],
            fuels: FuelOdds(e10: 1, e5: 0.7, b7: 1, sdv: 0.2), allowsNoFuel: false, priceOffsetTenths: -20,
            placement: supermarket, addressStyle: .streetTown, keyOrder: .standard,
            priceOrder: standardOrder, coordinateDecimals: 6...6, schedule: .daily(2, 0, 21)),
        RetailerProfile(
            slug: "bp", weight: 309, isSupermarket: false,
            brands: [BrandChoice("BP", 1)],
            fuels: FuelOdds(e10: 1, e5: 0.99, b7: 1, sdv: 1), allowsNoFuel: false, priceOffsetTenths: 45,
            placement: forecourt, addressStyle: .streetOnly, keyOrder: .standard,
            priceOrder: standardOrder, coordinateDecimals: 5...6, schedule: .daily(11, 0, 5)),
        RetailerProfile(
            slug: "rontec", weight: 267, isSupermarket: false,
            brands: [BrandChoice("Esso", 40), BrandChoice("BP", 35), BrandChoice("Shell", 25)],
            fuels: FuelOdds(e10: 1, e5: 0.8, b7: 1, sdv: 0.65), allowsNoFuel: false, priceOffsetTenths: 0,
            placement: PlacementMix(town: 0.80, rural: 0.18, motorway: 0.02), addressStyle: .upperWithPostcode,
            keyOrder: .reversed, priceOrder: [.b7, .e10, .e5, .sdv], coordinateDecimals: 6...6,
            schedule: .daily(10, 55, 0, drift: 9)),
        RetailerProfile(
            slug: "esso-tesco-alliance", weight: 185, isSupermarket: false,
            brands: [BrandChoice("ESSO", "Esso", 1)],
            fuels: FuelOdds(e10: 0.92, e5: 0.91, b7: 0.95, sdv: 0.73), allowsNoFuel: false, priceOffsetTenths: 5,
            placement: forecourt, addressStyle: .upperStreetTown, keyOrder: .standard,
            priceOrder: [.b7, .sdv, .e10, .e5], coordinateDecimals: 6...6, schedule: .daily(0, 5, 0, drift: 59)),
        RetailerProfile(
            slug: "sgn", weight: 112, isSupermarket: false,
            brands: [BrandChoice("Texaco", 20), BrandChoice("BP", 20), BrandChoice("Shell", 15),
                     BrandChoice("Jet", "JET", 12), BrandChoice("Valero", 10), BrandChoice("Esso", 10),
                     BrandChoice("Coop", "Co-op", 8), BrandChoice("Essar", 5)],
            fuels: FuelOdds(e10: 1, e5: 0.95, b7: 1, sdv: 0.9), allowsNoFuel: false, priceOffsetTenths: 10,
            placement: countryGroup, addressStyle: .streetTownCounty, keyOrder: .standard,
            priceOrder: [.e5, .e10, .b7, .sdv], coordinateDecimals: 5...7, schedule: .daily(12, 19, 0, drift: 59)),
        RetailerProfile(
            slug: "ascona-group", weight: 61, isSupermarket: false,
            brands: [BrandChoice("TEXACO", "Texaco", 30), BrandChoice("JET", 20), BrandChoice("BP", 20),
                     BrandChoice("Esso", 15), BrandChoice("SHELL", "Shell", 10), BrandChoice("Valero", 5)],
            fuels: FuelOdds(e10: 1, e5: 0, b7: 1, sdv: 0), allowsNoFuel: false, priceOffsetTenths: -5,
            placement: countryGroup, addressStyle: .trailingFullStop, keyOrder: .standard,
            priceOrder: [.e10, .b7], coordinateDecimals: 6...6, schedule: .daily(11, 50, 0, drift: 30)),
        RetailerProfile(
            slug: "moto", weight: 48, isSupermarket: false,
            brands: [BrandChoice("BP", 1)],
            fuels: FuelOdds(e10: 1, e5: 1, b7: 1, sdv: 1), allowsNoFuel: false, priceOffsetTenths: 0,
            placement: PlacementMix(town: 0, rural: 0, motorway: 1), addressStyle: .serviceArea,
            keyOrder: .standard, priceOrder: [.e5, .e10, .b7, .sdv], coordinateDecimals: 4...4,
            schedule: PublishSchedule(times: [21_480, 35_880, 64_680, 79_080], driftSeconds: 5)),
        RetailerProfile(
            slug: "jet", weight: 30, isSupermarket: false,
            brands: [BrandChoice("JET", 1)],
            fuels: FuelOdds(e10: 0.9, e5: 0.8, b7: 0.9, sdv: 0.8), allowsNoFuel: true, priceOffsetTenths: -15,
            placement: PlacementMix(town: 0.75, rural: 0.25, motorway: 0), addressStyle: .streetTown,
            keyOrder: .standard, priceOrder: standardOrder, coordinateDecimals: 4...6,
            schedule: .daily(10, 45, 0, drift: 30)),
    ]

    /// Forecourt groups whose habits the synthetic `group-NNN` retailers copy, in rotation.
    private static let templateSlugs = ["mfg", "sgn", "rontec", "ascona-group", "esso-tesco-alliance", "jet"]

    /// A synthetic dealer group for large counts: a forecourt template with its own name, prices and clock.
    static func syntheticGroup(number: Int, seed: UInt64) -> RetailerProfile {
        let templateSlug = templateSlugs[(number - 1) % templateSlugs.count]
        var profile = real.first { $0.slug == templateSlug } ?? real[0]
        var random = SeededRandom(seed: SplitMix64.derive(seed, stream: 0x6772_6F75_7000 &+ UInt64(number)))
        let digits = String(number)
        profile.slug = "group-" + String(repeating: "0", count: max(0, 3 - digits.count)) + digits
        profile.priceOffsetTenths += random.integer(in: -20...20)
        profile.allowsNoFuel = false
        if case .groupPrefixed = profile.addressStyle {
            profile.addressStyle = .groupPrefixed("Group \(number)")
        }
        profile.schedule = .daily(random.integer(in: 0...23), random.integer(in: 0...59), 0, drift: 59)
        return profile
    }
}
