/// A tree's node records, 32 bytes each, placed so that siblings `2i + 1` and `2i + 2` share one
/// 64-byte cache line: expanding a node then touches a single line for both children.
///
/// Written only while the tree is being built, before the storage is shared; read-only after.
final class NodeStorage: @unchecked Sendable {
    static let lineBytes = 64
    let count: Int
    /// Node `i` is `nodes[i]`; it is slot `i + 1` of the allocation, so sibling pairs start on even slots.
    let nodes: UnsafeMutablePointer<NodeRecord>
    private let allocation: UnsafeMutableRawPointer

    init(count: Int) {
        precondition(MemoryLayout<NodeRecord>.stride * 2 == Self.lineBytes, "NodeRecord must be 32 bytes")
        self.count = count
        let slots = count + 1
        allocation = UnsafeMutableRawPointer.allocate(byteCount: slots * MemoryLayout<NodeRecord>.stride,
                                                      alignment: Self.lineBytes)
        let typed = allocation.initializeMemory(as: NodeRecord.self, repeating: .emptyBox, count: slots)
        nodes = typed + 1
    }

    deinit {
        allocation.deallocate()
    }

    var byteCount: Int { (count + 1) * MemoryLayout<NodeRecord>.stride }
}
