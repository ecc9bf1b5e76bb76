import Foundation
import Glibc
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
    /// `body.degraded`, the services the answer was given without, joined by `+`
    /// (`dialog-renderer+location-cache`); nil when the answer names none.
    var degraded: String?

    /// Reads a reply frame; nil when it is not valid JSON, not an object, or has no id the
    /// generator gave (digits, as a string or a number). `members` is scratch storage lent by
    /// the caller, so nothing is allocated per reply. Without `answers` (a lookup's reply) the
    /// body is not read, and a quicker path finds the rest when the reply is written as the
    /// services write it (a member list costs ~2.5k instructions per lookup reply, ~0.6 µs, a
    /// sixth of the generator's time); any other valid envelope (spaces, keys in another order)
    /// is read from the member list. `list` asks for the member list anyway (to check the
    /// reply's content): `members` then holds it.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, members: inout [StrictJSON.Member],
                     answers: Bool = true, list: Bool = false) -> ReplyScan? {
        if !answers && !list {
            guard StrictJSON.check(bytes) == nil else { return nil }
            if let scan = quick(bytes) { return scan }
        }
        var listedAll = false
        guard StrictJSON.check(bytes, members: &members, listedAll: &listedAll) == nil,
              StrictJSON.isObject(bytes) else { return nil }
        var id: Int?, ok: Bool?, error: Int?, body: Int?
        for member in members where member.depth == 1 {
            if key(member, is: "id", in: bytes) {
                id = number(in: bytes, member.value)
            } else if key(member, is: "ok", in: bytes) {
                // `true` or `false` (checked JSON: the first byte tells); anything else is no envelope.
                let first = bytes[member.value.lowerBound]
                ok = first == UInt8(ascii: "t") ? true : first == UInt8(ascii: "f") ? false : nil
            } else if key(member, is: "error", in: bytes), bytes[member.value.lowerBound] == UInt8(ascii: "{") {
                error = member.value.lowerBound
            } else if key(member, is: "body", in: bytes), bytes[member.value.lowerBound] == UInt8(ascii: "{") {
                body = member.value.lowerBound
            }
        }
        guard let id, let ok else { return nil }
        var scan = ReplyScan(id: id, ok: ok)
        for member in members where member.depth == 2 && (member.object == error || member.object == body) {
            if member.object == error, key(member, is: "code", in: bytes) {
                scan.errorCode = JSONObjectReader.string(bytes, member.value)
            } else if answers, member.object == body, key(member, is: "code", in: bytes) {
                scan.answerCode = JSONObjectReader.string(bytes, member.value)
            } else if answers, member.object == body, key(member, is: "outcome", in: bytes) {
                scan.outcome = JSONObjectReader.string(bytes, member.value)
            } else if answers, member.object == body, key(member, is: "degraded", in: bytes) {
                scan.degraded = names(in: bytes, member.value)
            }
        }
        return scan.isEnvelope ? scan : nil
    }

    /// An error reply names its code: one without is no reply envelope (the generator would
    /// otherwise file it as the server's error).
    private var isEnvelope: Bool { ok || errorCode != nil }

    /// The envelope of a reply already checked as JSON and written as the services write it
    /// (sorted keys, no spaces: `..."id":"7","ok":true,...}`), by a search from the end: the last
    /// `"id":` is the envelope's when nothing but its own closing brace lies deeper after it. Nil
    /// when the bytes are not in that form (the caller then reads the member list).
    private static func quick(_ bytes: UnsafeBufferPointer<UInt8>) -> ReplyScan? {
        guard let idStart = lastIndex(of: #""id":"#, in: bytes) else { return nil }
        var end = idStart
        if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
            end += 1
            while end < bytes.count, bytes[end] != UInt8(ascii: "\"") { end += 1 }
            end += 1
        } else {
            while end < bytes.count, bytes[end] >= UInt8(ascii: "0"), bytes[end] <= UInt8(ascii: "9") { end += 1 }
        }
        guard end <= bytes.count, end > idStart, let id = number(in: bytes, idStart..<end) else { return nil }
        // The services end every reply so: the document's last brace closes the id's object, the envelope.
        let tail = UnsafeBufferPointer(rebasing: bytes[end...])
        var ok: Bool
        if equal(tail, okTail) {
            ok = true
        } else if equal(tail, errorTail) {
            ok = false
        } else {
            // Other members after the id: still the envelope's when nothing deeper follows.
            guard isOutermost(bytes, from: end) else { return nil }
            if lastIndex(of: #""ok":true"#, in: tail) != nil {
                ok = true
            } else if lastIndex(of: #""ok":false"#, in: tail) != nil {
                ok = false
            } else {
                return nil
            }
        }
        var scan = ReplyScan(id: id, ok: ok)
        if !ok, let codeStart = lastIndex(of: #""code":""#, in: bytes), codeStart < idStart {
            var codeEnd = codeStart
            while codeEnd < bytes.count, bytes[codeEnd] != UInt8(ascii: "\"") { codeEnd += 1 }
            scan.errorCode = String(decoding: UnsafeBufferPointer(rebasing: bytes[codeStart..<codeEnd]), as: UTF8.self)
        }
        return scan.isEnvelope ? scan : nil
    }

    private static let okTail: StaticString = #","ok":true,"v":1}"#
    private static let errorTail: StaticString = #","ok":false,"v":1}"#

    /// Whether the value starting at `start` is a member of the outermost object: after it, outside
    /// strings, no bracket opens and exactly one closes (the object's own).
    private static func isOutermost(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        var closing = 0, index = start, inString = false
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                if byte == UInt8(ascii: "\\") { index += 1 } else if byte == UInt8(ascii: "\"") { inString = false }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                return false
            } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                closing += 1
            }
            index += 1
        }
        return closing == 1
    }

    /// Whether a reply without an id of ours names some other id: `"id":` then a string or a
    /// number (`"id":null`, or no id at all, is a reply that could not say whose it is).
    static func namesForeignID(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard var index = lastIndex(of: #""id":"#, in: bytes) else { return false }
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
        guard index < bytes.count else { return false }
        let first = bytes[index]
        return first == UInt8(ascii: "\"") || first == UInt8(ascii: "-") || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9"))
    }

    /// The id of a reply that could not be read (not JSON, say), found as text: `"id":` then
    /// digits, quoted or not, after any spaces. So its request is no longer waited for.
    static func looseID(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard var index = lastIndex(of: #""id":"#, in: bytes) else { return nil }
        while index < bytes.count, bytes[index] == UInt8(ascii: " ") || bytes[index] == UInt8(ascii: "\"") { index += 1 }
        var value = 0, digits = 0
        while index < bytes.count, digits < 17, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            digits += 1
            index += 1
        }
        return digits > 0 ? value : nil
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
        return equal(UnsafeBufferPointer(rebasing: bytes[member.key]), name)
    }

    /// Whether `bytes` are exactly `text` (a `memcmp`: the generic `elementsEqual` over raw
    /// buffers cost ~800 instructions a reply, a tenth of the load generator's share).
    private static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ text: StaticString) -> Bool {
        guard bytes.count == text.utf8CodeUnitCount else { return false }
        guard let base = bytes.baseAddress else { return bytes.isEmpty }
        return memcmp(base, text.utf8Start, bytes.count) == 0
    }

    /// An error reply's `error.message` (nil without one): read by decoding the frame, which is
    /// done once for each error code.
    static func errorMessage(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(buffer: bytes)) as? [String: Any],
              let error = object["error"] as? [String: Any], let message = error["message"] as? String else {
            return nil
        }
        return String(message.prefix(200))
    }

    /// The strings of the array at `range`, joined by `+` (nil for an empty array or no array).
    /// Read by their quotes: an array of plain names, as the router writes it.
    private static func names(in bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String? {
        guard bytes[range.lowerBound] == UInt8(ascii: "[") else { return nil }
        var names: [String] = [], index = range.lowerBound
        while index < range.upperBound {
            guard bytes[index] == UInt8(ascii: "\"") else { index += 1; continue }
            var end = index + 1
            while end < range.upperBound, bytes[end] != UInt8(ascii: "\"") {
                end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
            }
            names.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[(index + 1)..<min(end, range.upperBound)]),
                                as: UTF8.self))
            index = end + 1
        }
        return names.isEmpty ? nil : names.joined(separator: "+")
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
