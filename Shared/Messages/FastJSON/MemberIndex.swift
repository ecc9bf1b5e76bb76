/// Every member of every object of a checked document, as `StrictJSON.check(_:members:listedAll:)`
/// listed them in its one pass: a reader finds an object's members here instead of walking its
/// bytes again (and again for each value nested in it).
///
/// Members are listed as their values end, so by where their values end; an object's members are
/// those between its braces whose `object` is where it opens. Only a whole index may be used
/// (`listedAll`): a member missing from it would be a member a reader never sees.
public struct MemberIndex {
    public let members: UnsafeBufferPointer<StrictJSON.Member>

    public init(_ members: UnsafeBufferPointer<StrictJSON.Member>) {
        self.members = members
    }

    /// Calls `visit` with each member of the object whose text is at `object` (from its `{`), in order.
    @inlinable
    public func forEachMember<Failure: Error>(
        ofObjectAt object: Range<Int>, _ visit: (StrictJSON.Member) throws(Failure) -> Void
    ) throws(Failure) {
        // The first member whose value ends inside the object: a binary search by value end.
        var low = 0, high = members.count
        while low < high {
            let middle = (low + high) / 2
            if members[middle].value.upperBound <= object.lowerBound { low = middle + 1 } else { high = middle }
        }
        var position = low
        while position < members.count, members[position].value.upperBound < object.upperBound {
            if members[position].object == object.lowerBound { try visit(members[position]) }
            position += 1
        }
    }
}
