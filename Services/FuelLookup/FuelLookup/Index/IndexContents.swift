import Foundation
import Messages

/// Everything a `PriceIndex` holds, built from a station list.
struct IndexContents: Sendable {
    /// Fuels in the order of `fuelTrees`: `FuelCode.allCases`, so a fuel's tree is at its `slot`.
    static let fuels = FuelCode.allCases

    /// The input arrays themselves, shared rather than copied; unlocated and superseded records
    /// stay in them but nothing refers to them.
    var stations: StationGroups
    /// One per indexed station, in id order: a station's "rank" (its index here) is what the
    /// trees refer to, so comparing ranks compares ids.
    var records: [StationRecord]
    var fuelTrees: [SpatialTree]
    var allStationsTree: SpatialTree
    var brandIDs: [String: Int32]
    var retailerIDs: [String: Int32]

    init(_ input: StationGroups) {
        stations = input
        let positions = StationOrdering.locatedUniquePositionsInIDOrder(input)
        let medians = RetailerMedians(input)
        var brands = FoldedNameTable(), retailers = FoldedNameTable()
        var fuelInputs = Array(repeating: [PointRecord](), count: Self.fuels.count)
        var allInputs: [PointRecord] = []
        allInputs.reserveCapacity(positions.count)
        records = []
        records.reserveCapacity(positions.count)
        for (rank, position) in positions.enumerated() {
            // Always present: the ordering kept located stations only.
            let station = input[position]
            let location = station.location ?? Coordinate(lat: 0, lng: 0)
            records.append(StationRecord(position: Int32(position), outliers: medians.flags(of: station),
                                         lat: location.lat, lng: location.lng,
                                         updatedSeconds: station.updated.timeIntervalSinceReferenceDate,
                                         brand: brands.id(for: station.brand),
                                         retailer: retailers.id(for: station.retailer)))
            let unit = UnitVector(location)
            let point = PointRecord(x: Float(unit.x), y: Float(unit.y), z: Float(unit.z), price: 0,
                                    station: Int32(rank))
            allInputs.append(point)
            for (fuel, price) in station.prices {
                var priced = point
                priced.price = price.tenths
                fuelInputs[fuel.slot].append(priced)
            }
        }
        brandIDs = brands.ids
        retailerIDs = retailers.ids
        // Hand each input array over whole, so the builder sorts it in place instead of copying it.
        fuelTrees = fuelInputs.indices.map { slot in
            var taken: [PointRecord] = []
            swap(&taken, &fuelInputs[slot])
            return SpatialTreeBuilder.build(taken)
        }
        allStationsTree = SpatialTreeBuilder.build(allInputs)
    }
}

/// Assigns a small id to each distinct case-folded name, caching the folding per raw spelling.
struct FoldedNameTable {
    private(set) var ids: [String: Int32] = [:]
    private var rawToID: [String: Int32] = [:]

    static func fold(_ name: String) -> String { name.lowercased() }

    mutating func id(for raw: String) -> Int32 {
        if let known = rawToID[raw] { return known }
        let folded = Self.fold(raw)
        let id = ids[folded] ?? Int32(ids.count)
        ids[folded] = id
        rawToID[raw] = id
        return id
    }
}
