import Foundation
import Messages

/// Generates the station records of one feed: placement, brand, address, prices, then quirks.
///
/// Quirk decisions use their own random stream, so a feed with quirks has exactly the stations of
/// the same feed without them, apart from the planted defects.
struct FeedBuilder: Sendable {
    let world: SampleWorld
    let quirksEnabled: Bool
    let quirkRate: Double

    private static let siteKinds: [SiteKind] = [.town, .rural, .motorway]
    /// Geohash of a point a hair south-west of 0,0, as the real MFG feed gives its `0,0` sites.
    static let zeroSiteId = "7zzzzzzzzzzz"

    func records(for plan: FeedPlan, guaranteed: [SampleQuirk]) -> [SiteRecord] {
        let profile = plan.profile
        let count = plan.stationCount
        var random = SeededRandom(seed: plan.seed)
        var quirkRandom = SeededRandom(seed: SplitMix64.derive(plan.seed, stream: 0x7175_6972_6B73))
        var pending = quirksEnabled
            ? guaranteed.map { (target: quirkRandom.integer(in: 1...max(1, count / 2)), quirk: $0) }
            : []
        let placer = SitePlacer(world: world)
        let addresses = AddressMaker(world: world)
        let pricer = PriceMaker()
        let kindTable = WeightedTable([profile.placement.town, profile.placement.rural, profile.placement.motorway])
        let brandTable = WeightedTable(profile.brands.map(\.weight))
        var usedIds = Set<String>(minimumCapacity: count)
        var records: [SiteRecord] = []
        records.reserveCapacity(count)

        for position in 0..<count {
            let kind = Self.siteKinds[kindTable.pick(using: &random)]
            let placement = placer.place(kind, random: &random)
            let brand = profile.brands[brandTable.pick(using: &random)]
            let address = addresses.make(for: placement, style: profile.addressStyle,
                                         isSupermarket: profile.isSupermarket, random: &random)
            let prices = pricer.prices(for: profile, town: world.towns[placement.townIndex], kind: kind,
                                       random: &random)
            let decimals = random.integer(in: profile.coordinateDecimals)
            let scale = SiteRecord.scale(decimals)
            let latitudeScaled = Int64((placement.latitude * scale).rounded())
            var longitudeScaled = Int64((placement.longitude * scale).rounded())
            var siteId = Geohash.encode(latitude: Double(latitudeScaled) / scale,
                                        longitude: Double(longitudeScaled) / scale)
            while usedIds.contains(siteId) { // two sites on one spot: move one a step east
                longitudeScaled += 1
                siteId = Geohash.encode(latitude: Double(latitudeScaled) / scale,
                                        longitude: Double(longitudeScaled) / scale)
            }
            usedIds.insert(siteId)
            var record = SiteRecord(
                writtenSiteId: siteId, siteId: siteId, writtenBrand: brand.verbatim, brand: brand.canonical,
                writtenAddress: address.address, writtenPostcode: address.postcode, postcode: address.postcode,
                latitudeScaled: latitudeScaled, longitudeScaled: longitudeScaled, decimals: decimals,
                coordinateForm: .number, prices: prices.map { ($0.fuel, PriceValue.tenths($0.tenths)) },
                locality: address.locality, kind: kind, quirk: nil)
            if quirksEnabled {
                let quirk = chooseQuirk(for: record, position: position, style: profile.addressStyle,
                                        pending: &pending, random: &quirkRandom)
                if let quirk {
                    QuirkPlanter.plant(quirk, on: &record, previous: records.last, random: &quirkRandom)
                }
            }
            records.append(record)
        }
        return records
    }

    /// A guaranteed quirk whose turn has come and that fits, else a random one at `quirkRate`.
    private func chooseQuirk(for record: SiteRecord, position: Int, style: AddressStyle,
                             pending: inout [(target: Int, quirk: SampleQuirk)],
                             random: inout SeededRandom) -> SampleQuirk? {
        if let index = pending.firstIndex(where: {
            $0.target <= position && record.accepts($0.quirk, style: style, position: position)
        }) {
            return pending.remove(at: index).quirk
        }
        guard random.chance(quirkRate) else { return nil }
        let fitting = SampleQuirk.allCases.filter { record.accepts($0, style: style, position: position) }
        return fitting.isEmpty ? nil : random.pick(fitting)
    }
}

/// Applies one quirk to a record, the way the real feeds show it.
enum QuirkPlanter {
    static func plant(_ quirk: SampleQuirk, on record: inout SiteRecord, previous: SiteRecord?,
                      random: inout SeededRandom) {
        record.quirk = quirk
        switch quirk {
        case .sentinelPrice:
            let index = random.below(record.prices.count)
            record.prices[index].value = .tenths(random.chance(0.5) ? 0 : 9999)
        case .floatNoisePrice:
            let index = random.below(record.prices.count)
            let tenths = record.prices[index].value.tenths
            let exact = Double(tenths) / 10
            record.prices[index].value = .noisy(tenths, random.chance(0.5) ? exact.nextDown : exact.nextUp)
        case .zeroCoordinates:
            record.coordinateForm = .zero
            record.siteId = FeedBuilder.zeroSiteId
            record.writtenSiteId = FeedBuilder.zeroSiteId
        case .stringCoordinates:
            record.coordinateForm = .string
        case .paddedSiteId:
            record.writtenSiteId = "  " + record.siteId
        case .unspacedPostcode:
            record.writtenPostcode = record.postcode.replacingOccurrences(of: " ", with: "")
        case .lowercasePostcode:
            record.writtenPostcode = record.postcode.lowercased()
        case .upperCaseAddress:
            record.writtenAddress = record.writtenAddress.uppercased()
        case .duplicateSiteId:
            guard let previous else { return }
            record.siteId = previous.siteId
            record.writtenSiteId = previous.siteId
            record.writtenPostcode = previous.postcode
            record.postcode = previous.postcode
            record.locality = previous.locality
            record.decimals = previous.decimals
            let step = Int64(SiteRecord.scale(previous.decimals) * 0.0005) // about 55 m north
            record.latitudeScaled = previous.latitudeScaled + max(1, step)
            record.longitudeScaled = previous.longitudeScaled
        case .noBreakSpaceInAddress:
            var characters = Array(record.writtenAddress)
            let spaces = characters.indices.filter { characters[$0] == " " }
            if !spaces.isEmpty {
                characters[random.pick(spaces)] = "\u{00A0}"
                record.writtenAddress = String(characters)
            }
        case .brandVariant:
            let verbatim = record.writtenBrand
            let recased = verbatim == verbatim.uppercased()
                ? verbatim.prefix(1).uppercased() + verbatim.dropFirst().lowercased() // ESSO -> Esso, BP -> Bp
                : verbatim.uppercased()
            let variants = [verbatim + " ", recased, ""]
            record.writtenBrand = random.pick(variants)
            if record.writtenBrand.isEmpty { record.brand = "" }
        }
    }
}
