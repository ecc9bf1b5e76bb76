import Messages

/// One station a search returned: which station, which of the tree's points, how far.
struct SearchHit: Sendable {
    var station: Int32
    var point: Int32
    var distanceMiles: Double
}

/// What one best-first search asks.
struct SearchQuery {
    var coordinate: Coordinate
    var position: UnitVector
    var radiusMiles: Double
    /// `SphereBounds.key(miles: radiusMiles)`: nothing keyed above it can be within the radius.
    var radiusKey: Double
    var limit: Int
    /// Rank by `(price, distance, id)` when true, by `(distance, id)` when false.
    var ranksByPrice: Bool
    var filter: ResolvedFilter
}

/// Best-first search over a `SpatialTree`.
///
/// Nodes enter the heap keyed by (lowest price below them, squared chord to their box); points by
/// (price, squared chord), and are measured with the haversine only when they reach the top.
/// Ranking by price, a leaf's points (stored in price order) enter one at a time, each followed
/// by the rest of the leaf keyed by (the next point's price, the leaf's box).
/// Since every key is a lower bound on the keys it stands for and points carry their id rank
/// as the last key, the order in which measured points leave the heap is exactly the
/// brute-force order, ties included, and the search stops after `limit` of them.
enum TreeSearch {
    /// Heap items that live on the stack before the heap spills to allocated memory.
    static let stackItems = 32

    /// The first `query.limit` stations in rank order, each turned into `Hit` as it is found.
    static func run<Hit>(_ query: SearchQuery, in tree: SpatialTree, stations: [StationRecord],
                         _ convert: (SearchHit) -> Hit) -> [Hit] {
        guard !tree.points.isEmpty, query.limit > 0, query.radiusMiles >= 0 else { return [] }
        var hits: [Hit] = []
        hits.reserveCapacity(min(query.limit, 64))
        withExtendedLifetime(tree.nodes) {
            let nodes = UnsafePointer(tree.nodes.nodes)
            tree.points.withUnsafeBufferPointer { points in
                stations.withUnsafeBufferPointer { records in
                    withUnsafeTemporaryAllocation(of: SearchItem.self, capacity: stackItems) { storage in
                        var heap = SearchHeap(storage: storage)
                        let walk = Walk(query: query, nodes: nodes, points: points, records: records,
                                        firstLeaf: tree.firstLeaf, tree: tree)
                        walk.search(heap: &heap) { hits.append(convert($0)) }
                    }
                }
            }
        }
        return hits
    }

    private struct Walk {
        let query: SearchQuery
        let nodes: UnsafePointer<NodeRecord>
        let points: UnsafeBufferPointer<PointRecord>
        let records: UnsafeBufferPointer<StationRecord>
        let firstLeaf: Int
        let tree: SpatialTree

        func search(heap: inout SearchHeap, found: (SearchHit) -> Void) {
            var next = nodeItem(0)
            var count = 0
            while true {
                let item: SearchItem
                if let ready = next {
                    item = ready
                    next = nil
                } else if !heap.isEmpty {
                    item = heap.popTop()
                } else {
                    return
                }
                switch item.kind {
                case .node:
                    if item.index < firstLeaf {
                        next = descend(from: item.index, heap: &heap)
                    } else if query.ranksByPrice {
                        let points = tree.pointRange(ofLeaf: item.index)
                        next = takeCheapestPoint(points, leafKey: item.distanceKey, heap: &heap)
                    } else {
                        pushPoints(ofLeaf: item.index, into: &heap)
                    }
                case .leafRest:
                    let points = item.index ..< tree.leafEnd(ofPoint: item.index)
                    next = takeCheapestPoint(points, leafKey: item.distanceKey, heap: &heap)
                case .roughPoint:
                    guard let exact = measure(item) else { continue }
                    next = ready(exact, heap: &heap)
                case .exactPoint:
                    found(hit(item))
                    count += 1
                    if count >= query.limit { return }
                }
            }
        }

        /// Queues the children of `index` that reach the query sphere, except the better one when
        /// it precedes everything queued: that one is returned to be taken at once.
        @inline(__always)
        private func descend(from index: Int, heap: inout SearchHeap) -> SearchItem? {
            let left = nodeItem(2 * index + 1), right = nodeItem(2 * index + 2)
            guard var best = left else { return right.flatMap { ready($0, heap: &heap) } }
            if let right {
                if right.precedes(best) {
                    heap.push(best)
                    best = right
                } else {
                    heap.push(right)
                }
            }
            return ready(best, heap: &heap)
        }

        /// `item` when nothing queued precedes it (so it may come next), otherwise queues it.
        @inline(__always)
        private func ready(_ item: SearchItem, heap: inout SearchHeap) -> SearchItem? {
            if heap.isEmpty || !heap.top.precedes(item) { return item }
            heap.push(item)
            return nil
        }

        /// Node `index` as a search item, or nil when its box lies wholly outside the radius.
        @inline(__always)
        private func nodeItem(_ index: Int) -> SearchItem? {
            let node = nodes[index]
            let p = query.position
            let bound = node.chordSquared(x: p.x, y: p.y, z: p.z)
            guard bound <= query.radiusKey else { return nil }
            return SearchItem(kind: .node, index: index, price: query.ranksByPrice ? node.minPrice : 0,
                              distanceKey: bound, tie: -1)
        }

        @inline(__always)
        private func pushPoints(ofLeaf leaf: Int, into heap: inout SearchHeap) {
            let p = query.position
            for index in tree.pointRange(ofLeaf: leaf) {
                let point = points[index]
                let bound = point.chordSquared(x: p.x, y: p.y, z: p.z)
                guard bound <= query.radiusKey else { continue }
                heap.push(SearchItem(kind: .roughPoint, index: index, price: query.ranksByPrice ? point.price : 0,
                                     distanceKey: bound, tie: point.station))
            }
        }

        /// The first point of `range` (part of a leaf, in price order) within reach of the radius,
        /// and the rest of the range queued behind it, keyed by the next point's price and the
        /// leaf's box (`leafKey`): a lower bound on every point left. So a leaf's points enter
        /// the heap one at a time, cheapest first, instead of all at once.
        @inline(__always)
        private func takeCheapestPoint(_ range: Range<Int>, leafKey: Double,
                                       heap: inout SearchHeap) -> SearchItem? {
            let p = query.position
            for index in range {
                let point = points[index]
                let bound = point.chordSquared(x: p.x, y: p.y, z: p.z)
                guard bound <= query.radiusKey else { continue }
                if index + 1 < range.upperBound {
                    heap.push(SearchItem(kind: .leafRest, index: index + 1, price: points[index + 1].price,
                                         distanceKey: leafKey, tie: -1))
                }
                let item = SearchItem(kind: .roughPoint, index: index, price: point.price, distanceKey: bound,
                                      tie: point.station)
                return ready(item, heap: &heap)
            }
            return nil
        }

        /// The point with its exact haversine distance, or nil when outside the radius or filtered out.
        @inline(__always)
        private func measure(_ item: SearchItem) -> SearchItem? {
            let record = records[Int(item.tie)]
            guard query.filter.admits(record) else { return nil }
            let distance = query.coordinate.distanceMiles(to: Coordinate(lat: record.lat, lng: record.lng))
            guard distance <= query.radiusMiles else { return nil }
            var exact = item
            exact.distanceKey = SphereBounds.key(miles: distance)
            exact.distance = distance
            exact.packed = UInt32(item.index) << 2 | SearchItem.Kind.exactPoint.rawValue
            return exact
        }

        @inline(__always)
        private func hit(_ item: SearchItem) -> SearchHit {
            SearchHit(station: item.tie, point: Int32(item.index), distanceMiles: item.distance)
        }
    }
}
