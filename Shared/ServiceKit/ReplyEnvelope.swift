import Foundation
import Messages

/// A service's reply frame read in place: its id, whether it is a success, and where its body
/// or error is. Only the part a caller asks for is then decoded, so a caller never decodes a
/// reply twice (once for its id, once for its body) nor walks the envelope with a decoder.
public struct ReplyEnvelope {
    /// The frame the reply is in (for a reply inside a batch, the batch's frame).
    public let payload: Data
    public let id: String?
    public let ok: Bool
    /// Where the body and the error are, counted from the first byte of `payload`.
    public let body: Range<Int>?
    public let error: Range<Int>?
    /// Where a `replies` member of the body would be (a batch's reply), noted by the same pass.
    private var replies: Range<Int>?
    /// The members of every object in the frame, found by the same pass (a batch's replies
    /// share their frame's), and whether that is all of them (then readers use it as an index).
    @usableFromInline var members: [StrictJSON.Member] = []
    @usableFromInline var membersAreIndex = false

    /// Nil when the frame is not a JSON object.
    public init?(_ payload: Data) {
        var fields = Fields(), replies: Range<Int>?
        var members: [StrictJSON.Member] = []
        members.reserveCapacity(max(64, payload.count / 16))  // one allocation (a member takes ~20 bytes or more)
        var listedAll = false
        let isObject = payload.withUnsafeBytes { raw -> Bool in
            let bytes = raw.bindMemory(to: UInt8.self)
            // One strict pass checks the frame and lists the members of its objects: the envelope's,
            // the body's and (in a batch's reply) each reply's, read below; all of them for the readers.
            guard StrictJSON.check(bytes, members: &members, listedAll: &listedAll) == nil,
                  StrictJSON.isObject(bytes) else {
                return false
            }
            for member in members where member.depth <= 2 {
                let key = JSONObjectReader.RawKey(bytes: bytes, range: member.key, hasEscape: member.keyHasEscape)
                if member.depth == 1 {
                    fields.take(key, member.value, in: bytes)
                } else if key.matches("replies") {
                    replies = member.value
                }
            }
            return true
        }
        guard isObject else { return nil }
        self.init(payload: payload, fields)
        self.replies = replies.flatMap { body?.contains($0.lowerBound) == true ? $0 : nil }
        self.members = members
        membersAreIndex = listedAll
    }

    private init(payload: Data, _ fields: Fields) {
        self.payload = payload
        (id, ok, body, error) = (fields.id, fields.ok, fields.body, fields.error)
    }

    /// The envelope's members, as a reader meets them.
    private struct Fields {
        var id: String?, ok = false, body: Range<Int>?, error: Range<Int>?

        mutating func take(_ key: JSONObjectReader.RawKey, _ value: Range<Int>, in bytes: UnsafeBufferPointer<UInt8>) {
            if key.matches("id") {
                id = JSONObjectReader.string(bytes, value)
            } else if key.matches("ok") {
                ok = value.count == 4 && bytes[value.lowerBound] == UInt8(ascii: "t")
            } else if key.matches("body") {
                body = value
            } else if key.matches("error") {
                error = value
            }
        }
    }

    /// The replies of a `sys.batch` reply, in order (nil when this is not a success whose body
    /// is `{"replies": [...]}`; an element that is not a JSON object, or is empty, is left out).
    /// The frame was checked whole and each reply's members found in that pass, so a reply is
    /// not walked again; each shares the frame.
    public var batchReplies: [ReplyEnvelope]? {
        guard ok, let replies else { return nil }
        return payload.withUnsafeBytes { raw -> [ReplyEnvelope]? in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard let open = bytes[replies].first, open == UInt8(ascii: "[") else { return nil }
            var found: [ReplyEnvelope] = []
            var fields = Fields(), object: Int?
            func close() {
                guard object != nil else { return }
                var reply = ReplyEnvelope(payload: payload, fields)
                (reply.members, reply.membersAreIndex) = (members, membersAreIndex)
                found.append(reply)
            }
            for member in members where member.depth == 4 && replies.contains(member.object) {
                if member.object != object {
                    close()
                    (fields, object) = (Fields(), member.object)
                }
                fields.take(JSONObjectReader.RawKey(bytes: bytes, range: member.key, hasEscape: member.keyHasEscape),
                            member.value, in: bytes)
            }
            close()
            return found
        }
    }

    /// The error of a failure reply (nil for a success or an unreadable error).
    public var serviceError: ServiceError? {
        guard !ok, let error else { return nil }
        return try? JSONCoding.decode(ServiceError.self, from: payload.subdata(in: shifted(error)))
    }

    /// The body as `Out`, or the reply's error. Inlinable, so that where the caller knows `Out`
    /// the check for a hand reader is decided when compiling, not at run time.
    @inlinable
    public func result<Out: Decodable>(as: Out.Type, from name: String) -> Result<Out, ServiceError> {
        guard ok else {
            return .failure(serviceError ?? ServiceError(.internal, "\(name) replied with an unreadable error"))
        }
        guard let body else { return .failure(ServiceError(.internal, "\(name) replied with neither body nor error")) }
        do {
            if let readable = Out.self as? any JSONReadable.Type {
                let value = try payload.withUnsafeBytes { raw in
                    try members.withUnsafeBufferPointer { listed in
                        try readable.read(checked: raw.bindMemory(to: UInt8.self), body,
                                          index: membersAreIndex ? MemberIndex(listed) : nil)
                    }
                }
                if let value = value as? Out { return .success(value) }
            }
            return .success(try JSONCoding.decode(Out.self, from: payload.subdata(in: shifted(body))))
        } catch {
            return .failure(ServiceError(.internal, "unreadable reply from \(name)"))
        }
    }

    /// `range` (counted from the first byte) as indices of `payload`, which need not start at 0.
    @usableFromInline
    func shifted(_ range: Range<Int>) -> Range<Int> {
        (payload.startIndex + range.lowerBound)..<(payload.startIndex + range.upperBound)
    }
}
