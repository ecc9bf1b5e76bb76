/// An item of the best-first search: a node, a point not yet measured exactly, a measured point,
/// or the rest of a leaf whose points are being taken one at a time.
///
/// Items order lexicographically by `(price, distanceKey, distance, tie)`. A node's or unmeasured
/// point's order is a lower bound on that of every point it stands for (see `SphereBounds`), which
/// is what makes the search exact; among measured points the order is (price, distance, id).
struct SearchItem {
    enum Kind: UInt32 {
        case node = 0, roughPoint = 1, exactPoint = 2
        /// The points of a leaf from `index` to the leaf's end, in price order (ranking by price).
        case leafRest = 3
    }

    /// Price lower bound (0 when ranking by distance only).
    var price: Int32
    /// Station index (= id rank) for points, -1 for nodes and leaf rests.
    var tie: Int32
    /// Squared chord lower bound, or `SphereBounds.key(miles:)` of the exact distance once measured.
    var distanceKey: Double
    /// The exact haversine distance in miles once measured, -1 before.
    var distance: Double
    /// `index << 2 | kind`: a node index, or a point index within the tree (for a leaf rest, its first).
    var packed: UInt32

    init(kind: Kind, index: Int, price: Int32, distanceKey: Double, tie: Int32) {
        self.price = price
        self.tie = tie
        self.distanceKey = distanceKey
        self.distance = -1
        self.packed = UInt32(truncatingIfNeeded: index) << 2 | kind.rawValue
    }

    var kind: Kind { Kind(rawValue: packed & 3) ?? .node }
    var index: Int { Int(packed >> 2) }

    @inline(__always)
    func precedes(_ other: SearchItem) -> Bool {
        if price != other.price { return price < other.price }
        if distanceKey != other.distanceKey { return distanceKey < other.distanceKey }
        if distance != other.distance { return distance < other.distance }
        return tie < other.tie
    }
}

/// A binary min-heap of `SearchItem`s that starts in caller-provided (stack) storage and moves to
/// the heap only if a search outgrows it.
struct SearchHeap: ~Copyable {
    private var base: UnsafeMutablePointer<SearchItem>
    private var capacity: Int
    private var ownsBase = false
    private(set) var count = 0

    init(storage: UnsafeMutableBufferPointer<SearchItem>) {
        // A zero-capacity buffer may have no base address; grow on the first push instead.
        base = storage.baseAddress ?? UnsafeMutablePointer<SearchItem>.allocate(capacity: 1)
        capacity = storage.baseAddress == nil ? 0 : storage.count
        ownsBase = storage.baseAddress == nil
    }

    deinit {
        if ownsBase { base.deallocate() }
    }

    var isEmpty: Bool { count == 0 }

    /// The least item; only valid when not empty.
    var top: SearchItem { base[0] }

    mutating func push(_ item: SearchItem) {
        if count == capacity { grow() }
        var child = count
        count += 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard item.precedes(base[parent]) else { break }
            base[child] = base[parent]
            child = parent
        }
        base[child] = item
    }

    /// Removes and returns the least item; only valid when not empty.
    mutating func popTop() -> SearchItem {
        let least = base[0]
        count -= 1
        guard count > 0 else { return least }
        let last = base[count]
        var parent = 0
        while true {
            var child = 2 * parent + 1
            guard child < count else { break }
            if child + 1 < count && base[child + 1].precedes(base[child]) { child += 1 }
            guard base[child].precedes(last) else { break }
            base[parent] = base[child]
            parent = child
        }
        base[parent] = last
        return least
    }

    private mutating func grow() {
        let newCapacity = max(64, capacity * 2)
        let newBase = UnsafeMutablePointer<SearchItem>.allocate(capacity: newCapacity)
        newBase.moveInitialize(from: base, count: count)
        if ownsBase { base.deallocate() }
        base = newBase
        capacity = newCapacity
        ownsBase = true
    }
}
