import Foundation
import Messages
import Synchronization

/// An immutable spatial index of stations and their prices, answering "cheapest fuel near here"
/// and "nearest station" exactly (the same answer as measuring every station) in time that grows
/// roughly with the logarithm of the station count.
///
/// Build a new index off the serving thread and swap the reference: nothing in it ever changes.
/// Only stations with a usable `location` are indexed; when ids repeat, the last record wins.
public final class PriceIndex: Sendable {
    /// Which index this is, unique in the process (from 1): what caches keyed to one index
    /// compare, instead of holding a weak reference (which would move every retain and release
    /// of the index to the slower side-table path).
    let serial: UInt64
    private static let serials = Atomic<UInt64>(0)
    /// The input station arrays (shared, not copied).
    private let stations: StationGroups
    private let records: [StationRecord]
    private let fuelTrees: [SpatialTree]
    private let allStationsTree: SpatialTree
    private let brandIDs: [String: Int32]
    private let retailerIDs: [String: Int32]
    /// The newest feed time among the stations (seconds since the reference date; -inf when empty).
    let newestUpdatedSeconds: Double

    public convenience init(stations input: [Station]) {
        self.init(stationGroups: StationGroups([input]))
    }

    /// An index over several arrays (one per retailer) without concatenating them first.
    public init(stationGroups input: StationGroups) {
        serial = Self.serials.wrappingAdd(1, ordering: .relaxed).newValue
        let contents = IndexContents(input)
        stations = contents.stations
        records = contents.records
        fuelTrees = contents.fuelTrees
        allStationsTree = contents.allStationsTree
        brandIDs = contents.brandIDs
        retailerIDs = contents.retailerIDs
        newestUpdatedSeconds = contents.records.reduce(-Double.infinity) { max($0, $1.updatedSeconds) }
    }

    /// A ranked match's feed time (seconds since the reference date).
    func updatedSeconds(_ ranked: RankedMatch) -> Double { records[Int(ranked.rank)].updatedSeconds }

    /// Number of indexed stations.
    public var count: Int { records.count }

    /// Bytes the index itself holds beyond the `Station` records (trees, per-station columns, tables).
    public var indexByteCount: Int {
        let trees = fuelTrees.reduce(allStationsTree.byteCount) { $0 + $1.byteCount }
        let columns = records.capacity * MemoryLayout<StationRecord>.stride
        let tables = (brandIDs.count + retailerIDs.count) * (MemoryLayout<String>.stride + 16)
        return trees + columns + tables
    }

    /// The indexed station with this id, if any.
    public func station(id: String) -> Station? {
        rank(id: id).map { station(rank: $0) }
    }

    /// The outliers among the prices of the indexed station with this id (none if there is no such station).
    public func priceOutliers(id: String) -> [FuelCode: PriceOutlier] {
        guard let rank = rank(id: id) else { return [:] }
        var outliers: [FuelCode: PriceOutlier] = [:]
        for (slot, fuel) in IndexContents.fuels.enumerated() {
            if let outlier = records[rank].outliers[slot] { outliers[fuel] = outlier }
        }
        return outliers
    }

    /// The rank of the station with this id, if indexed (binary search over the id order).
    private func rank(id: String) -> Int? {
        var low = 0, high = records.count
        while low < high {
            let middle = (low + high) / 2
            if station(rank: middle).id < id { low = middle + 1 } else { high = middle }
        }
        return low < records.count && station(rank: low).id == id ? low : nil
    }

    /// Stations selling `fuel` within `radiusMiles` of `point`, cheapest first, then nearest, then by id.
    public func cheapest(fuel: FuelCode, at point: Coordinate, radiusMiles: Double, limit: Int = 1,
                         filter: LookupFilter = .none) -> [Match] {
        cheapestRanked(fuel: fuel, at: point, radiusMiles: radiusMiles, limit: limit, filter: filter).map(match)
    }

    /// Stations within `radiusMiles` of `point`, nearest first, then by id: those selling `fuel`
    /// (with its price), or every station when `fuel` is nil.
    public func nearest(fuel: FuelCode?, at point: Coordinate, radiusMiles: Double, limit: Int = 1,
                        filter: LookupFilter = .none) -> [Match] {
        nearestRanked(fuel: fuel, at: point, radiusMiles: radiusMiles, limit: limit, filter: filter).map(match)
    }

    /// `cheapest`, with each station's rank (its place in id order, stable while the index lives).
    func cheapestRanked(fuel: FuelCode, at point: Coordinate, radiusMiles: Double, limit: Int,
                        filter: LookupFilter) -> [RankedMatch] {
        let slot = fuel.slot
        guard let query = makeQuery(point, radiusMiles, limit, ranksByPrice: true, filter) else { return [] }
        let tree = fuelTrees[slot]
        return TreeSearch.run(query, in: tree, stations: records) { ranked($0, in: tree, fuelSlot: slot) }
    }

    /// `nearest`, with each station's rank.
    func nearestRanked(fuel: FuelCode?, at point: Coordinate, radiusMiles: Double, limit: Int,
                       filter: LookupFilter) -> [RankedMatch] {
        let slot = fuel?.slot
        let tree = slot.map { fuelTrees[$0] } ?? allStationsTree
        guard let query = makeQuery(point, radiusMiles, limit, ranksByPrice: false, filter) else { return [] }
        return TreeSearch.run(query, in: tree, stations: records) { ranked($0, in: tree, fuelSlot: slot) }
    }

    /// The query, or nil when no station can satisfy it (bad point, radius or limit; unknown brand).
    private func makeQuery(_ point: Coordinate, _ radiusMiles: Double, _ limit: Int, ranksByPrice: Bool,
                           _ filter: LookupFilter) -> SearchQuery? {
        guard point.isOnEarth, radiusMiles >= 0, limit > 0, let resolved = resolve(filter) else { return nil }
        return SearchQuery(coordinate: point, position: UnitVector(point), radiusMiles: radiusMiles,
                           radiusKey: SphereBounds.key(miles: radiusMiles), limit: limit,
                           ranksByPrice: ranksByPrice, filter: resolved)
    }

    private func resolve(_ filter: LookupFilter) -> ResolvedFilter? {
        guard !filter.isUnrestricted else { return .unrestricted }
        var resolved = ResolvedFilter.unrestricted
        if let maxAge = filter.maxAge {
            guard !maxAge.isNaN else { return nil }
            resolved.cutoffSeconds = filter.now.addingTimeInterval(-maxAge).timeIntervalSinceReferenceDate
        }
        if let brand = filter.brand {
            guard let id = brandIDs[FoldedNameTable.fold(brand)] else { return nil }
            resolved.brand = id
        }
        if let retailer = filter.retailer {
            guard let id = retailerIDs[FoldedNameTable.fold(retailer)] else { return nil }
            resolved.retailer = id
        }
        return resolved
    }

    /// A hit as a match: with its price and whether that is an outlier when the tree is a fuel's
    /// (`fuelSlot`), without for the all-stations tree.
    private func ranked(_ hit: SearchHit, in tree: SpatialTree, fuelSlot: Int?) -> RankedMatch {
        guard let fuelSlot else {
            return RankedMatch(rank: hit.station, price: nil, distanceMiles: hit.distanceMiles, priceOutlier: nil)
        }
        return RankedMatch(rank: hit.station, price: Price(tenths: tree.points[Int(hit.point)].price),
                           distanceMiles: hit.distanceMiles,
                           priceOutlier: records[Int(hit.station)].outliers[fuelSlot])
    }

    /// The full match of a ranked one.
    func match(_ ranked: RankedMatch) -> Match {
        Match(station: station(rank: Int(ranked.rank)), price: ranked.price, distanceMiles: ranked.distanceMiles,
              priceOutlier: ranked.priceOutlier)
    }

    /// The station of `rank` (its place in id order).
    func station(rank: Int) -> Station { stations[Int(records[rank].position)] }
}
