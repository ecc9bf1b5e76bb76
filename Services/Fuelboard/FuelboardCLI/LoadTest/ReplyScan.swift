import Messages

/// What the load generator reads from a reply, without decoding it (the generator must stay
/// cheap): the id, `ok`, the error's code, and for an assistant's answer its `code` and
/// `outcome`. The whole frame is validated by the strict JSON check, which also lists the
/// members this reads.
struct ReplyScan: Equatable {
    var id: Int
    var ok: Bool
    /// The envelope's `error.code` when `ok` is false.
    var errorCode: String?
    /// `body.code` (an assistant answer's: `success`, `failure`, `needsValue`...).
    var answerCode: String?
    /// `body.outcome` (`found`, `nothingInRange`, `pricesUnavailable`...).
    var outcome: String?

    /// Reads a reply frame; nil when it is not valid JSON, not an object, or has no id the
    /// generator gave (digits, as a string or a number). `members` is scratch storage lent by
    /// the caller, so nothing is allocated per reply. Without `answers` (a lookup's reply) the
    /// body is not read, and a quicker path finds the rest (a member list costs ~2.5k
    /// instructions per lookup reply, ~0.6 µs, a sixth of the generator's time).
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, members: inout [StrictJSON.Member],
                     answers: Bool = true) -> ReplyScan? {
        guard answers else { return quick(bytes) }
        var listedAll = false
        guard StrictJSON.check(bytes, members: &members, listedAll: &listedAll) == nil,
              StrictJSON.isObject(bytes) else { return nil }
        var id: Int?, ok = false, error: Int?, body: Int?
        for member in members where member.depth == 1 {
            if key(member, is: "id", in: bytes) {
                id = number(in: bytes, member.value)
            } else if key(member, is: "ok", in: bytes) {
                ok = bytes[member.value.lowerBound] == UInt8(ascii: "t")
            } else if key(member, is: "error", in: bytes), bytes[member.value.lowerBound] == UInt8(ascii: "{") {
                error = member.value.lowerBound
            } else if key(member, is: "body", in: bytes), bytes[member.value.lowerBound] == UInt8(ascii: "{") {
                body = member.value.lowerBound
            }
        }
        guard let id else { return nil }
        var scan = ReplyScan(id: id, ok: ok)
        for member in members where member.depth == 2 && (member.object == error || member.object == body) {
            if member.object == error, key(member, is: "code", in: bytes) {
                scan.errorCode = JSONObjectReader.string(bytes, member.value)
            } else if member.object == body, key(member, is: "code", in: bytes) {
                scan.answerCode = JSONObjectReader.string(bytes, member.value)
            } else if member.object == body, key(member, is: "outcome", in: bytes) {
                scan.outcome = JSONObjectReader.string(bytes, member.value)
            }
        }
        return scan
    }

    /// The strict check alone, then the members by a search from the end: replies are written
    /// with sorted keys, so the envelope's `"id"`, `"ok"` and its error's `"code"` come after any
    /// key of the same name in the body.
    private static func quick(_ bytes: UnsafeBufferPointer<UInt8>) -> ReplyScan? {
        guard StrictJSON.check(bytes) == nil, let idStart = lastIndex(of: #""id":"#, in: bytes) else { return nil }
        var end = idStart
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            end += 1
            while end < bytes.count, bytes[end] != UInt8(ascii: "\"") { end += 1 }
            end += 1
        } else {
            while end < bytes.count, bytes[end] >= UInt8(ascii: "0"), bytes[end] <= UInt8(ascii: "9") { end += 1 }
        }
        guard end <= bytes.count, end > idStart, let id = number(in: bytes, idStart..<end) else { return nil }
        var scan = ReplyScan(id: id, ok: lastIndex(of: #""ok":true"#, in: bytes) != nil)
        if !scan.ok, let codeStart = lastIndex(of: #""code":""#, in: bytes) {
            var codeEnd = codeStart
            while codeEnd < bytes.count, bytes[codeEnd] != UInt8(ascii: "\"") { codeEnd += 1 }
            scan.errorCode = String(decoding: UnsafeBufferPointer(rebasing: bytes[codeStart..<codeEnd]), as: UTF8.self)
        }
        return scan
    }

    /// The index just past the last occurrence of `needle` in `bytes`.
    private static func lastIndex(of needle: StaticString, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let count = needle.utf8CodeUnitCount
        guard bytes.count >= count else { return nil }
        let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: count)
        var start = bytes.count - count
        while start >= 0 {
            var matches = true
            for offset in 0..<count where bytes[start + offset] != pattern[offset] {
                matches = false
                break
            }
            if matches { return start + count }
            start -= 1
        }
        return nil
    }

    /// Whether the member's key is `name`, written without escapes.
    private static func key(_ member: StrictJSON.Member, is name: StaticString,
                            in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !member.keyHasEscape, member.key.count == name.utf8CodeUnitCount else { return false }
        let expected = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        return bytes[member.key].elementsEqual(expected)
    }

    /// The whole number written in `range`: digits, bare or in quotes (at most 17 of them).
    private static func number(in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        var digits = range
        if bytes[range.lowerBound] == UInt8(ascii: "\"") { digits = (range.lowerBound + 1)..<(range.upperBound - 1) }
        guard !digits.isEmpty, digits.count < 18 else { return nil }
        var value = 0
        for index in digits {
            let byte = bytes[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
