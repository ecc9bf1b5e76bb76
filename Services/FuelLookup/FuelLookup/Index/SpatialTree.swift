/// A static k-d tree over unit vectors, laid out implicitly in flat arrays (nodes in `NodeStorage`).
///
/// Node `i` has children `2i + 1` and `2i + 2`; with `leafCount` (a power of two) leaves, the
/// leaves are nodes `leafCount - 1 ..< 2 * leafCount - 1`, and leaf `j` holds the points
/// `j * n / leafCount ..< (j + 1) * n / leafCount`, so no node stores a range or child links.
/// Within a leaf, points are in ascending price order.
struct SpatialTree: Sendable {
    let leafCount: Int
    let nodes: NodeStorage
    let points: [PointRecord]

    init(leafCount: Int, nodes: NodeStorage, points: [PointRecord]) {
        self.leafCount = leafCount
        self.nodes = nodes
        self.points = points
    }

    static let empty = SpatialTree(leafCount: 0, nodes: NodeStorage(count: 0), points: [])

    var firstLeaf: Int { leafCount - 1 }

    /// The points of leaf node `node` (`node >= firstLeaf`).
    @inline(__always)
    func pointRange(ofLeaf node: Int) -> Range<Int> {
        let leaf = node - (leafCount - 1)
        let count = points.count
        return (leaf * count / leafCount) ..< ((leaf + 1) * count / leafCount)
    }

    /// Where the points of the leaf holding point `index` end: leaf `j` is the last whose first
    /// point, `j * n / leafCount`, is at or before `index`.
    @inline(__always)
    func leafEnd(ofPoint index: Int) -> Int {
        let count = points.count
        let leaf = ((index + 1) * leafCount - 1) / count
        return (leaf + 1) * count / leafCount
    }

    /// Bytes held by the tree's arrays.
    var byteCount: Int {
        nodes.byteCount + points.capacity * MemoryLayout<PointRecord>.stride
    }
}
