import Foundation
import Messages

/// A service's reply frame read in place: its id, whether it is a success, and where its body
/// or error is. Only the part a caller asks for is then decoded, so a caller never decodes a
/// reply twice (once for its id, once for its body) nor walks the envelope with a decoder.
public struct ReplyEnvelope {
    public let payload: Data
    public let id: String?
    public let ok: Bool
    public let body: Range<Int>?
    public let error: Range<Int>?

    /// Nil when the frame is not a JSON object.
    public init?(_ payload: Data) {
        var id: String?, ok = false, body: Range<Int>?, error: Range<Int>?
        let isObject = payload.withUnsafeBytes { raw -> Bool in
            let bytes = raw.bindMemory(to: UInt8.self)
            // One strict pass checks the frame and finds the envelope's members.
            var members: [StrictJSON.Member] = []
            members.reserveCapacity(32)  // one allocation, not one per doubling
            guard StrictJSON.check(bytes, members: &members) == nil, StrictJSON.isObject(bytes) else { return false }
            for member in members where member.depth == 1 {
                let key = JSONObjectReader.RawKey(bytes: bytes, range: member.key, hasEscape: member.keyHasEscape)
                let value = member.value
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
            return true
        }
        guard isObject else { return nil }
        self.payload = payload
        (self.id, self.ok, self.body, self.error) = (id, ok, body, error)
    }

    /// The error of a failure reply (nil for a success or an unreadable error).
    public var serviceError: ServiceError? {
        guard !ok, let error else { return nil }
        return try? JSONCoding.decode(ServiceError.self, from: payload.subdata(in: error))
    }

    /// The body as `Out`, or the reply's error.
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
            return .success(try JSONCoding.decode(Out.self, from: payload.subdata(in: body)))
        } catch {
            return .failure(ServiceError(.internal, "unreadable reply from \(name)"))
        }
    }
}
