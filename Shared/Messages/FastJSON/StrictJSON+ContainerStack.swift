extension StrictJSON {
    /// The kinds of the open containers, innermost last: the first 64 levels in one word, so a
    /// check of an ordinary request allocates nothing.
    struct ContainerStack {
        private(set) var depth = 0
        private var lowLevels: UInt64 = 0
        private var deeperLevels: [Bool] = []

        /// Whether the innermost open container is an object (nil when none is open).
        var innermostIsObject: Bool? {
            guard depth > 0 else { return nil }
            let level = depth - 1
            return level < 64 ? (lowLevels >> UInt64(level)) & 1 == 1 : deeperLevels[level - 64]
        }

        mutating func push(isObject: Bool) {
            if depth < 64 {
                let bit: UInt64 = 1 << UInt64(depth)
                lowLevels = isObject ? lowLevels | bit : lowLevels & ~bit
            } else {
                deeperLevels.append(isObject)
            }
            depth += 1
        }

        mutating func pop() {
            depth -= 1
            if depth >= 64 { deeperLevels.removeLast() }
        }
    }
}
