/// What the strict check lists as it scans: the members of objects, and at which depths.
extension StrictJSON {
    /// A member of an object found while checking: its depth, where its key's text (between the
    /// quotes) and its value are, and where the object holding it opens. Depth 1 is the document's
    /// own object; in a request, depth 2 is its body's, and in a `sys.batch` frame depths 4 and 5
    /// are each inner request's envelope and body.
    public struct Member: Sendable, Equatable {
        public let depth: Int
        public let key: Range<Int>
        public let keyHasEscape: Bool
        public let value: Range<Int>
        /// The offset of the `{` of the object this member is in.
        public let object: Int

        public init(depth: Int, key: Range<Int>, keyHasEscape: Bool, value: Range<Int>, object: Int) {
            (self.depth, self.key, self.keyHasEscape, self.value, self.object) = (depth, key, keyHasEscape, value, object)
        }
    }

    /// The depths whose members `check` lists.
    public struct Depths: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// A request's or reply's envelope (depth 1) and its body (depth 2).
        public static let envelope = Depths(rawValue: 0b0000_0110)
        /// Also the envelopes and bodies of the requests or replies in a batch's array (depths 4
        /// and 5), so they are read from this one pass instead of a check each.
        public static let batch = Depths(rawValue: 0b0011_0110)
        /// Every object's members down to `deepest`: an index readers walk instead of the bytes.
        public static let all = Depths(rawValue: (1 << UInt32(deepest + 1)) - 2)
        /// The deepest depth that can be listed.
        public static let deepest = 16

        func contains(depth: Int) -> Bool { depth <= Self.deepest && rawValue & (1 << UInt32(depth)) != 0 }
    }
}
