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

    /// Nil when the frame is not a JSON object.
    public init?(_ payload: Data) {
        var fields = Fields(), replies: Range<Int>?
        let isObject = payload.withUnsafeBytes { raw -> Bool in
            let bytes = raw.bindMemory(to: UInt8.self)
            // One strict pass checks the frame and finds the envelope's members and the body's.
            var members: [StrictJSON.Member] = []
            members.reserveCapacity(32)  // one allocation, not one per doubling
            guard StrictJSON.check(bytes, members: &members) == nil, StrictJSON.isObject(bytes) else { return false }
            for member in members {
                let key = JSONObjectReader.RawKey(bytes: bytes, range: member.key, hasEscape: member.keyHasEscape)
                if member.depth == 2 {
                    if key.matches("replies") { replies = member.value }
                } else {
                    fields.take(key, member.value, in: bytes)
                }
            }
            return true
        }
        guard isObject else { return nil }
        self.init(payload: payload, fields)
        self.replies = replies.flatMap { body?.contains($0.lowerBound) == true ? $0 : nil }
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
    /// is `{"replies": [...]}`; an element that is not a JSON object is left out). The frame was
    /// checked whole, so each reply is only walked, in the pass that finds where it ends, and
    /// shares the frame.
    public var batchReplies: [ReplyEnvelope]? {
        guard ok, let replies else { return nil }
        return payload.withUnsafeBytes { raw -> [ReplyEnvelope]? in
            let bytes = raw.bindMemory(to: UInt8.self)
            var found: [ReplyEnvelope] = []
            let isArray = JSONObjectReader.forEachElement(bytes, in: replies) { start -> Int? in
                var fields = Fields()
                let end = JSONObjectReader.forEachMember(bytes, from: start, limit: replies.upperBound) { key, value in
                    fields.take(key, value, in: bytes)
                }
                if end != nil { found.append(ReplyEnvelope(payload: payload, fields)) }
                return end
            }
            return isArray ? found : nil
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
                    try readable.read(checked: raw.bindMemory(to: UInt8.self), body)
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
