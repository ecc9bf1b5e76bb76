import Foundation
import Messages

/// One request as a handler sees it: its id and type, the raw JSON, and ways to reply.
///
/// The envelope is read without a full decode: the frame is checked once by `StrictJSON`, then
/// the top-level members are located in place. The client's `id` is echoed byte for byte, and a
/// reply is the handler's encoded body spliced into the envelope.
public struct IncomingRequest {
    let route: [Data]
    /// The whole request JSON.
    public let payload: Data
    unowned let server: ReplyServer
    /// Where the id's JSON text is in `payload`, as the client sent it (nil: the request has no
    /// readable id, and replies say `null`).
    private(set) var idRange: Range<Int>?
    /// The request type (set when the request is dispatched).
    public internal(set) var type: String = ""
    /// Where the type's text is in `payload` when it is a string without escapes: the server
    /// matches it against its handlers' types without building a `String`.
    private(set) var typeText: Range<Int>?
    /// Where the body's JSON text is inside `payload` (nil when the request has no body).
    public private(set) var bodyRange: Range<Int>?
    /// The members of the envelope and of the objects in it, found by the strict check (the
    /// server lends the storage from request to request). For a `sys.batch` frame, also those of
    /// each inner request, which are handed to it (so its frame is not checked again).
    @usableFromInline var members: [StrictJSON.Member] = []
    /// Set when `members` already holds this request's members, found when the batch frame
    /// it came in was checked: `decodeHead` then reads them without a check of its own.
    var isChecked = false
    /// A batch whose check found a name given twice inside one of its requests: each request is
    /// checked again alone (`ReplyServer.handleBatch`), so only that one is refused.
    var checksItemsAlone = false
    /// Whether `members` lists every member of every object in the frame: readers of the body
    /// then use it as an index instead of walking the bytes.
    @usableFromInline var membersAreIndex = false
    var deferredID: UInt64 = 0
    /// The `sys.batch` this request came in, and its place there (nil: a request of its own).
    var batch: PendingBatch?
    var batchIndex = 0
    /// Where the server counts this request in its stats (0, `other`, until a handler for its type is found).
    var statsSlot = 0

    init(route: [Data], payload: Data, server: ReplyServer) {
        self.route = route
        self.payload = payload
        self.server = server
    }

    private static let null = Array("null".utf8)

    /// The id's JSON text (`null` when the request was not readable).
    var idJSON: [UInt8] {
        guard let idRange else { return Self.null }
        return Array(payload[payload.startIndex + idRange.lowerBound ..< payload.startIndex + idRange.upperBound])
    }

    /// The client's id as a value (`null` when the request was not readable).
    public var id: JSONValue {
        (try? JSONDecoder().decode(JSONValue.self, from: Data(idJSON))) ?? .null
    }

    /// The id as it goes into a log line (bounded, without quotes).
    public var logID: String {
        if let printable = printableLogID { return printable }  // also every id that is absent or `null`
        // An id written with escapes: its characters, cut (the logger writes controls as escapes);
        // cut as JSON text, an escape lost its end ("\u20" in a QA pass's log).
        if case .string(let text) = id { return String(text.prefix(64)) }
        var text = String(decoding: idJSON.prefix(66), as: UTF8.self)
        if text.hasPrefix("\"") { text.removeFirst() }
        if text.hasSuffix("\"") { text.removeLast() }
        return String(text.prefix(64))
    }

    /// `logID` for an id written in printable ASCII without escapes (every byte a character): the
    /// same steps on the bytes, without building and trimming strings. Nil for any other id.
    private var printableLogID: String? {
        guard let idRange else { return "-" }
        return payload.withUnsafeBytes { raw -> String? in
            let id = UnsafeRawBufferPointer(rebasing: raw[idRange])
            guard id.isPrintableASCII, !id.contains(UInt8(ascii: "\\")) else { return nil }
            if id.elementsEqual(Self.null) { return "-" }
            var start = 0, end = min(id.count, 66)
            if start < end && id[start] == UInt8(ascii: "\"") { start += 1 }
            if start < end && id[end - 1] == UInt8(ascii: "\"") { end -= 1 }
            end = min(end, start + 64)
            return String(decoding: UnsafeRawBufferPointer(rebasing: id[start..<end]), as: UTF8.self)
        }
    }

    var logType: String { String(type.prefix(60)) }

    /// Reads `v`, `id`, `type` and where `body` is; anything unreadable is `bad_request`. One
    /// strict pass over the frame checks it and finds the members of the envelope and the body
    /// (and of a batch's inner requests; an inner request is not checked again).
    /// A type written without escapes is only located (`typeText`), for the server to match and
    /// then set `type`; one with escapes is resolved into `type` here. Either way the type is
    /// known before a version error is thrown, so such a request still counts under its type.
    mutating func decodeHead() throws(ServiceError) {
        var members: [StrictJSON.Member] = []
        swap(&members, &self.members)  // the lent storage, uniquely held while the check fills it
        defer { swap(&members, &self.members) }
        let head = payload.withUnsafeBytes { raw -> Head in
            let bytes = raw.bindMemory(to: UInt8.self)
            var fields = Head()
            if !isChecked {
                var listedAll = false
                if let failure = StrictJSON.check(bytes, members: &members, listedAll: &listedAll) {
                    fields.failure = .badRequest("request is not JSON: \(failure)")
                    return fields
                }
                let repeated = members.withUnsafeBufferPointer { StrictJSON.repeatedName(among: $0, in: bytes) }
                if let repeated, repeated.depth >= 4, Self.namesBatchType(members, in: bytes) {
                    // Inside a batch's request: that request alone is refused, as it would be sent
                    // alone; the others are answered (`checksItemsAlone`).
                    fields.checksItemsAlone = true
                } else if let repeated {
                    let refusal = StrictJSON.RepeatedName(repeated, in: bytes, of: "request")
                    fields.failure = .badRequest(refusal.description)
                    // The id is answered when it is not what was given twice.
                    if repeated.depth > 1 || refusal.name != "id", StrictJSON.isObject(bytes) {
                        fields.id = members.first { $0.depth == 1 && StrictJSON.name(of: $0, in: bytes) == "id" }?.value
                    }
                    return fields
                }
                fields.listedAll = listedAll
            }
            guard StrictJSON.isObject(bytes) else {
                fields.failure = .badRequest("request is not a JSON object")
                return fields
            }
            for member in members where member.depth == 1 {
                let key = JSONObjectReader.RawKey(bytes: bytes, range: member.key, hasEscape: member.keyHasEscape)
                let value = member.value
                if key.matches("id") {
                    fields.id = value
                } else if key.matches("type") {
                    fields.type = value
                } else if key.matches("v") {
                    fields.version = JSONObjectReader.number(bytes, value) ?? .nan
                } else if key.matches("body") {
                    fields.body = value
                }
            }
            if let type = fields.type {
                if JSONObjectReader.isPlainString(bytes, type) {
                    fields.typeText = (type.lowerBound + 1)..<(type.upperBound - 1)
                } else {
                    fields.typeString = JSONObjectReader.string(bytes, type)
                }
            }
            return fields
        }
        idRange = head.id
        checksItemsAlone = head.checksItemsAlone
        if let failure = head.failure { throw failure }
        if !isChecked { membersAreIndex = head.listedAll }
        bodyRange = head.body
        if let text = head.typeText, !text.isEmpty {
            typeText = text
        } else if let type = head.typeString, !type.isEmpty {
            self.type = type
        } else {
            throw .badRequest("request has no \"type\" string")
        }
        if let version = head.version, version != Double(wireVersion) {
            throw .badRequest("unsupported protocol version (this service speaks v\(wireVersion))")
        }
    }

    /// What `decodeHead` found in the envelope.
    private struct Head {
        var failure: ServiceError?
        var id: Range<Int>?
        var type: Range<Int>?
        var typeText: Range<Int>?
        var typeString: String?
        var version: Double?
        var body: Range<Int>?
        var listedAll = false
        var checksItemsAlone = false
    }

    /// Whether the envelope's `type` is `sys.batch` as written plainly (a batch's members checked).
    private static func namesBatchType(_ members: [StrictJSON.Member], in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let type = members.first(where: { $0.depth == 1 && StrictJSON.name(of: $0, in: bytes) == "type" })?.value
        else { return false }
        let quoted = "\"" + MessageType.sysBatch.rawValue + "\""
        return type.count == quoted.utf8.count && zip(bytes[type], quoted.utf8).allSatisfy { $0 == $1 }
    }

    /// The type's text as the client wrote it (for a type the server does not serve).
    var typeTextString: String? {
        guard let typeText else { return nil }
        return payload.withUnsafeBytes { raw in
            String(decoding: UnsafeRawBufferPointer(rebasing: raw[typeText]), as: UTF8.self)
        }
    }

    /// Calls `visit` with each member of the body object, in order, from what the strict check
    /// found (no second pass). Returns false when the body is not an object; a request without
    /// a body has an empty one. Inlinable, so a caller's reader is specialized into it.
    @inlinable
    public func forEachBodyMember<Failure: Error>(
        _ visit: (UnsafeBufferPointer<UInt8>, JSONObjectReader.RawKey, Range<Int>) throws(Failure) -> Void
    ) throws(Failure) -> Bool {
        guard let bodyRange else { return true }
        let outcome = payload.withUnsafeBytes { raw -> Result<Bool, Failure> in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard bytes[bodyRange.lowerBound] == UInt8(ascii: "{") else { return .success(false) }
            do throws(Failure) {
                for member in members where member.depth == 2 && bodyRange.contains(member.value.lowerBound) {
                    let key = JSONObjectReader.RawKey(bytes: bytes, range: member.key, hasEscape: member.keyHasEscape)
                    try visit(bytes, key, member.value)
                }
            } catch {
                return .failure(error)
            }
            return .success(true)
        }
        return try outcome.get()
    }

    /// The body's JSON text (`{}` when the request has none).
    public var bodyData: Data {
        guard let bodyRange else { return Data("{}".utf8) }
        // Ranges count from the payload's first byte, which need not be index 0 of a `Data`.
        let start = payload.startIndex
        return payload.subdata(in: (start + bodyRange.lowerBound)..<(start + bodyRange.upperBound))
    }

    /// Decodes the request's `body` as `Body`; an ill-shaped body is `bad_request` naming the field.
    @inlinable
    public func decodeBody<Body: Decodable & Sendable>(_ type: Body.Type) throws(ServiceError) -> Body {
        if let body = readBody(Body.self) { return body }
        do {
            // The frame passed the strict check: what the decoder refuses as a whole is a value
            // (it said "The given data was not valid JSON." of `"lat":1e999`).
            return try JSONCoding.decodeChecked(Body.self, from: bodyData)
        } catch {
            throw .badRequest("bad body for \(self.type): \(ServiceError.describe(error))")
        }
    }

    /// The body read by hand from the checked frame when `Body` is `JSONReadable` and its reader
    /// takes it; nil otherwise (the caller then decodes with `JSONDecoder`, for the value or the error).
    @inlinable
    public func readBody<Body>(_ type: Body.Type) -> Body? {
        guard let readable = Body.self as? any JSONReadable.Type, let bodyRange else { return nil }
        return payload.withUnsafeBytes { raw in
            members.withUnsafeBufferPointer { listed in
                let bytes = raw.bindMemory(to: UInt8.self)
                let index = membersAreIndex ? MemberIndex(listed) : nil
                return (try? readable.init(json: JSONSlice(bytes: bytes, range: bodyRange, index: index))) as? Body
            }
        }
    }

    /// A success reply carrying `body` (written straight into the envelope when it can write itself).
    @inlinable
    public func reply<Out: Encodable>(_ body: Out) -> ReplyServer.Outcome {
        if let writable = body as? any JSONWritable {
            var refused = false
            let outcome = reply { out in
                writable.writeJSON(to: &out)
                refused = out.wroteNonFinite
            }
            if !refused { return outcome }
        }
        do {
            return reply(bodyJSON: try JSONCoding.encode(body))
        } catch {
            return reply(error: ServiceError(.internal, "reply could not be encoded"))
        }
    }

    /// A success reply whose body is already-encoded JSON.
    public func reply<Bytes: Collection>(bodyJSON: Bytes) -> ReplyServer.Outcome where Bytes.Element == UInt8 {
        reply(capacity: bodyJSON.count + 64) { out in out.raw(bodyJSON) }
    }

    /// A success reply whose body `writeBody` writes straight into the reply envelope (hot paths
    /// write JSON by hand, with no intermediate value and no second copy).
    public func reply(capacity: Int = 512, writeBody: (inout JSONWriter) -> Void) -> ReplyServer.Outcome {
        var out = JSONWriter(capacity: capacity + (idRange?.count ?? 4))
        out.raw(#"{"body":"#)
        writeBody(&out)
        out.raw(#","id":"#)
        writeID(into: &out)
        out.raw(#","ok":true,"v":1}"#)
        return .reply(out.bytes, nil)
    }

    /// An error reply.
    public func reply(error: ServiceError) -> ReplyServer.Outcome {
        var out = Array(#"{"error":"#.utf8)
        out.append(contentsOf: (try? JSONCoding.encode(error))
                   ?? Data(#"{"code":"internal","message":"encoding failed"}"#.utf8))
        out.append(contentsOf: #","id":"#.utf8)
        out.append(contentsOf: idJSON)
        out.append(contentsOf: #","ok":false,"v":1}"#.utf8)
        return .reply(out, error)
    }

    /// Writes the id's JSON text as the client sent it (`null` when there was none).
    private func writeID(into out: inout JSONWriter) {
        guard let idRange else { return out.raw("null") }
        payload.withUnsafeBytes { raw in out.raw(UnsafeRawBufferPointer(rebasing: raw[idRange])) }
    }

    /// Keeps this request open to answer later from the loop thread.
    public func deferReply() -> (ReplyServer.Outcome, Responder) {
        (.deferred, Responder(request: self))
    }
}
