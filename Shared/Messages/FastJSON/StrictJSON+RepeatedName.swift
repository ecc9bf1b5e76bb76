#if canImport(Glibc)
import Glibc
#endif

/// Names given twice in one object. RFC 8259 leaves what they mean to the reader, and the readers
/// here disagreed: the router took an utterance's first "utterance" and fuel-lookup a body's last
/// "fuel", so two services could read one frame two ways. Every message the bus reads is refused
/// instead, naming the member.
extension StrictJSON {
    /// The first member (in `members`, as `check` listed them) whose name an earlier member of the
    /// same object has, or nil. Names are compared with their escapes resolved.
    public static func repeatedName(among members: UnsafeBufferPointer<Member>,
                                    in bytes: UnsafeBufferPointer<UInt8>) -> Member? {
        switch repeatedNameByWalking(members, bytes, steps: walkSteps(members.count)) {
        case .found(let member): member
        case .none: nil
        case .tooWide: repeatedNameByHashing(members, bytes)
        }
    }

    /// A document refused for a repeated name: `the message names "fuel" twice in one object (at
    /// byte 97): each name may appear once`.
    public struct RepeatedName: Error, Sendable, CustomStringConvertible {
        public let name: String
        /// Where the second one's key opens (its quote).
        public let offset: Int
        public let description: String

        public init(_ member: Member, in bytes: UnsafeBufferPointer<UInt8>, of document: String) {
            name = StrictJSON.name(of: member, in: bytes)
            offset = member.key.lowerBound - 1
            description = "\(document) names \"\(name.prefix(60))\" twice in one object (at byte \(offset)): "
                + "each name may appear once"
        }
    }

    /// Each member looks back through the earlier members of its own object (and of objects in
    /// it), which costs no allocation: a request or a batch of them takes a few steps a member.
    /// An object with many members would make that quadratic, so past this many steps in all the
    /// names go through a set instead.
    static func walkSteps(_ members: Int) -> Int { 32 * members + 1024 }

    private enum Walk { case found(Member), none, tooWide }

    /// The member's name as written between its quotes, escapes resolved.
    public static func name(of member: Member, in bytes: UnsafeBufferPointer<UInt8>) -> String {
        JSONObjectReader.RawKey(bytes: bytes, range: member.key, hasEscape: member.keyHasEscape).text
    }

    private static func repeatedNameByWalking(_ members: UnsafeBufferPointer<Member>,
                                              _ bytes: UnsafeBufferPointer<UInt8>, steps: Int) -> Walk {
        var left = steps
        for index in members.indices {
            let member = members[index]
            var earlier = index - 1
            // Members are listed as their values end: those of this object, and of objects in it,
            // come just before; a value that ended before the object opened is outside it.
            while earlier >= 0, members[earlier].value.upperBound > member.object {
                let other = members[earlier]
                if other.object == member.object, sameName(other, member, bytes) { return .found(member) }
                earlier -= 1
                left -= 1
                if left < 0 { return .tooWide }
            }
        }
        return .none
    }

    private static func repeatedNameByHashing(_ members: UnsafeBufferPointer<Member>,
                                              _ bytes: UnsafeBufferPointer<UInt8>) -> Member? {
        var seen = Set<NameInObject>(minimumCapacity: members.count)
        for member in members where !seen.insert(NameInObject(object: member.object, name: name(of: member, in: bytes))).inserted {
            return member
        }
        return nil
    }

    private struct NameInObject: Hashable {
        let object: Int
        let name: String
    }

    private static func sameName(_ one: Member, _ other: Member, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if one.keyHasEscape || other.keyHasEscape { return name(of: one, in: bytes) == name(of: other, in: bytes) }
        guard one.key.count == other.key.count, let start = bytes.baseAddress else { return false }
        return memcmp(start + one.key.lowerBound, start + other.key.lowerBound, one.key.count) == 0
    }
}
