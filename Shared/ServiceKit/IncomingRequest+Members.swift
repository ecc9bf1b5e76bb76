import Foundation
import Messages

extension IncomingRequest {
    /// Calls `visit` with each member of the object whose JSON text is at `object` in the payload
    /// (from its `{`: a value the strict check found, such as one `forEachBodyMember` hands out), in
    /// order. The members come from the check's list when it indexes the whole frame; in a frame
    /// with objects deeper than it lists, from walking the object's bytes. Returns false (after no
    /// call) when the value there is not an object. Inlinable, so a caller's reader is specialized
    /// into it.
    @inlinable
    public func forEachMember<Failure: Error>(
        ofObjectAt object: Range<Int>,
        _ visit: (UnsafeBufferPointer<UInt8>, JSONObjectReader.RawKey, Range<Int>) throws(Failure) -> Void
    ) throws(Failure) -> Bool {
        let outcome = payload.withUnsafeBytes { raw -> Result<Bool, Failure> in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard object.lowerBound >= 0, object.upperBound <= bytes.count, !object.isEmpty,
                  bytes[object.lowerBound] == UInt8(ascii: "{") else { return .success(false) }
            guard membersAreIndex else {
                do throws(Failure) {
                    let isObject = try JSONObjectReader.forEachMember(bytes, in: object) { key, value throws(Failure) in
                        try visit(bytes, key, value)
                    }
                    return .success(isObject)
                } catch {
                    return .failure(error)
                }
            }
            return members.withUnsafeBufferPointer { listed -> Result<Bool, Failure> in
                do throws(Failure) {
                    try MemberIndex(listed).forEachMember(ofObjectAt: object) { member throws(Failure) in
                        let key = JSONObjectReader.RawKey(bytes: bytes, range: member.key,
                                                          hasEscape: member.keyHasEscape)
                        try visit(bytes, key, member.value)
                    }
                } catch {
                    return .failure(error)
                }
                return .success(true)
            }
        }
        return try outcome.get()
    }
}
