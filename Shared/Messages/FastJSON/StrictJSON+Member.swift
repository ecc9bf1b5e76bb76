/// What the strict check lists as it scans: the members of objects.
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

    /// The deepest objects whose members `check` lists: a document with deeper ones is checked
    /// the same, but its list is not a whole index.
    public static let deepestListed = 16
}
