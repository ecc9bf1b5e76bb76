import Messages

/// Several station arrays (one per retailer) seen as one, without concatenating them: the index
/// refers to the replica's own arrays instead of holding a second copy of every station.
public struct StationGroups: RandomAccessCollection, Sendable {
    private let groups: [[Station]]
    /// `starts[g]`: the position of group `g`'s first station; the last entry is the total.
    private let starts: [Int]

    public init(_ groups: [[Station]]) {
        self.groups = groups
        var starts = [0]
        starts.reserveCapacity(groups.count + 1)
        for group in groups { starts.append(starts[starts.count - 1] + group.count) }
        self.starts = starts
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { starts[starts.count - 1] }

    public subscript(position: Int) -> Station {
        precondition(position >= 0 && position < endIndex, "station position out of range")
        // The last group starting at or before `position` (binary search over the starts).
        var low = 0, high = groups.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if starts[middle] <= position { low = middle } else { high = middle - 1 }
        }
        // Empty groups share their start with the next one: step past them.
        while starts[low + 1] <= position { low += 1 }
        return groups[low][position - starts[low]]
    }
}
