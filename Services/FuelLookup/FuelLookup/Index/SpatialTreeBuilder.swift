/// Builds a `SpatialTree` in place: top-down, each node's points are split at the median of the
/// widest axis (judged from a sample), down to leaves of `leafCapacity / 2 ... leafCapacity`
/// points, each leaf's in price order; then tight boxes and minimum prices are filled in
/// bottom-up. O(n log n).
enum SpatialTreeBuilder {
    /// The most points a leaf holds.
    static let leafCapacity = 16
    /// Points looked at to choose a node's split axis.
    static let axisSampleSize = 64

    /// Takes ownership of `inputs` (pass a uniquely referenced array to spare a copy) and
    /// returns them, reordered, inside the tree.
    static func build(_ inputs: consuming [PointRecord]) -> SpatialTree {
        guard !inputs.isEmpty else { return .empty }
        var leafCount = 1
        while leafCount * leafCapacity < inputs.count { leafCount *= 2 }
        let nodes = NodeStorage(count: 2 * leafCount - 1)
        var points = consume inputs
        points.withUnsafeMutableBufferPointer { pointBuffer in
            let nodeBuffer = UnsafeMutableBufferPointer(start: nodes.nodes, count: nodes.count)
            let layout = Layout(points: pointBuffer, nodes: nodeBuffer, leafCount: leafCount)
            layout.split(leaves: 0 ..< leafCount)
            layout.sortLeavesByPrice()
            layout.fillBoxes()
        }
        return SpatialTree(leafCount: leafCount, nodes: nodes, points: points)
    }

    private struct Layout {
        let points: UnsafeMutableBufferPointer<PointRecord>
        let nodes: UnsafeMutableBufferPointer<NodeRecord>
        let leafCount: Int

        func pointIndex(ofLeaf leaf: Int) -> Int { leaf * points.count / leafCount }

        /// Orders the points so that each leaf's range holds one spatially compact group.
        func split(leaves: Range<Int>) {
            guard leaves.count > 1 else { return }
            let range = pointIndex(ofLeaf: leaves.lowerBound) ..< pointIndex(ofLeaf: leaves.upperBound)
            let middleLeaf = leaves.lowerBound + leaves.count / 2
            partition(range, at: pointIndex(ofLeaf: middleLeaf), axis: widestAxis(range))
            split(leaves: leaves.lowerBound ..< middleLeaf)
            split(leaves: middleLeaf ..< leaves.upperBound)
        }

        /// Puts each leaf's points in ascending price order, so a search ranking by price can take
        /// a leaf's points one at a time, cheapest first (`TreeSearch`). A tree without prices
        /// (all 0) is left as it is.
        func sortLeavesByPrice() {
            for leaf in 0 ..< leafCount {
                let range = pointIndex(ofLeaf: leaf) ..< pointIndex(ofLeaf: leaf + 1)
                // Insertion sort: a leaf holds at most `leafCapacity` points.
                for index in range.dropFirst() {
                    let point = points[index]
                    var slot = index
                    while slot > range.lowerBound, points[slot - 1].price > point.price {
                        points[slot] = points[slot - 1]
                        slot -= 1
                    }
                    points[slot] = point
                }
            }
        }

        /// Leaves get the tight box of their points; every other node the union of its children.
        func fillBoxes() {
            let firstLeaf = leafCount - 1
            for leaf in 0 ..< leafCount {
                var box = NodeRecord.emptyBox
                for index in pointIndex(ofLeaf: leaf) ..< pointIndex(ofLeaf: leaf + 1) { box.include(points[index]) }
                nodes[firstLeaf + leaf] = box
            }
            for node in stride(from: firstLeaf - 1, through: 0, by: -1) {
                nodes[node] = nodes[2 * node + 1].union(nodes[2 * node + 2])
            }
        }

        private func widestAxis(_ range: Range<Int>) -> Int {
            var box = NodeRecord.emptyBox
            let step = max(1, range.count / SpatialTreeBuilder.axisSampleSize)
            for index in stride(from: range.lowerBound, to: range.upperBound, by: step) { box.include(points[index]) }
            let extents = (box.hiX - box.loX, box.hiY - box.loY, box.hiZ - box.loZ)
            if extents.0 >= extents.1 && extents.0 >= extents.2 { return 0 }
            return extents.1 >= extents.2 ? 1 : 2
        }

        /// Quickselect: afterwards no point before `pivotIndex` lies above it along `axis`
        /// and none after lies below. (Searches stay correct whatever the split, since every box
        /// is computed from the points it ends up holding; only their speed depends on it.)
        private func partition(_ range: Range<Int>, at pivotIndex: Int, axis: Int) {
            var low = range.lowerBound, high = range.upperBound - 1
            while high > low {
                let a = points[low][axis]
                let b = points[low + (high - low) / 2][axis]
                let c = points[high][axis]
                let pivot = max(min(a, b), min(max(a, b), c))
                var i = low, j = high
                while i <= j {
                    while points[i][axis] < pivot { i += 1 }
                    while points[j][axis] > pivot { j -= 1 }
                    if i <= j {
                        points.swapAt(i, j)
                        i += 1
                        j -= 1
                    }
                }
                if pivotIndex <= j {
                    high = j
                } else if pivotIndex >= i {
                    low = i
                } else {
                    return
                }
            }
        }
    }
}

extension PointRecord {
    @inline(__always)
    subscript(axis: Int) -> Float {
        switch axis {
        case 0: x
        case 1: y
        default: z
        }
    }
}

extension NodeRecord {
    /// A box that contains nothing, ready to `include` points.
    static let emptyBox = NodeRecord(loX: .infinity, loY: .infinity, loZ: .infinity,
                                     hiX: -.infinity, hiY: -.infinity, hiZ: -.infinity, minPrice: .max)

    mutating func include(_ point: PointRecord) {
        loX = min(loX, point.x)
        loY = min(loY, point.y)
        loZ = min(loZ, point.z)
        hiX = max(hiX, point.x)
        hiY = max(hiY, point.y)
        hiZ = max(hiZ, point.z)
        minPrice = min(minPrice, point.price)
    }

    func union(_ other: NodeRecord) -> NodeRecord {
        NodeRecord(loX: min(loX, other.loX), loY: min(loY, other.loY), loZ: min(loZ, other.loZ),
                   hiX: max(hiX, other.hiX), hiY: max(hiY, other.hiY), hiZ: max(hiZ, other.hiZ),
                   minPrice: min(minPrice, other.minPrice))
    }
}
