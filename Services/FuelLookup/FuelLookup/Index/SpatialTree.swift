/// A static k-d tree over unit vectors, laid out implicitly in flat arrays (nodes in `NodeStorage`).
///
/// Node `i` has children `2i + 1` and `2i + 2`; with `leafCount` (a power of two) leaves, the
/// leaves are nodes `leafCount - 1 ..< 2 * leafCount - 1`, and leaf `j` holds the points
/// `j * n / leafCount ..< (j + 1) * n / leafCount`, so no node stores a range or child links.
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

    /// Bytes held by the tree's arrays.
    var byteCount: Int {
        nodes.byteCount + points.capacity * MemoryLayout<PointRecord>.stride
    }
}
