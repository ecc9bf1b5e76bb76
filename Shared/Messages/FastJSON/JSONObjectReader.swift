import Foundation

/// Reads the members of a JSON object in bytes that `StrictJSON.check` has already accepted,
/// without building any tree: each member's key and the byte range of its value. The hot paths
/// (request envelopes, lookup bodies) use it instead of a full decode.
public struct JSONObjectReader {
    /// One member: its key and where its value's text is.
    public struct Member {
        public let key: String
        public let value: Range<Int>
    }

    /// The members of the object at `range` in `bytes`, or nil when the value there is not an object.
    /// - Important: `bytes` must be valid JSON (checked by `StrictJSON`); nothing is re-validated.
    public static func members(_ bytes: UnsafeBufferPointer<UInt8>, in range: Range<Int>) -> [Member]? {
        var index = skipWhitespace(bytes, range.lowerBound, range.upperBound)
        guard index < range.upperBound, bytes[index] == UInt8(ascii: "{") else { return nil }
        index += 1
        var members: [Member] = []
        members.reserveCapacity(8)
        while true {
            index = skipWhitespace(bytes, index, range.upperBound)
            guard index < range.upperBound else { return nil }
            if bytes[index] == UInt8(ascii: "}") { return members }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            let keyEnd = endOfValue(bytes, index, range.upperBound)
            guard let key = string(bytes, index..<keyEnd) else { return nil }
            index = skipWhitespace(bytes, keyEnd, range.upperBound) + 1  // past ':'
            let valueStart = skipWhitespace(bytes, index, range.upperBound)
            let valueEnd = endOfValue(bytes, valueStart, range.upperBound)
            members.append(Member(key: key, value: valueStart..<valueEnd))
            index = valueEnd
        }
    }

    /// A string value's text (escapes resolved), or nil when the value is not a string.
    public static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String? {
        guard range.count >= 2, bytes[range.lowerBound] == UInt8(ascii: "\"") else { return nil }
        let inner = (range.lowerBound + 1)..<(range.upperBound - 1)
        var hasEscape = false
        for index in inner where bytes[index] == UInt8(ascii: "\\") {
            hasEscape = true
            break
        }
        if !hasEscape {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[inner]), as: UTF8.self)
        }
        let data = Data(UnsafeBufferPointer(rebasing: bytes[range]))
        return try? JSONDecoder().decode(String.self, from: data)
    }

    /// A number value, or nil when the value is not a number.
    public static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double? {
        guard let first = range.first.map({ bytes[$0] }),
              first == UInt8(ascii: "-") || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")),
              range.count < 64 else { return nil }
        var buffer = [CChar](repeating: 0, count: range.count + 1)
        for (offset, index) in range.enumerated() { buffer[offset] = CChar(bitPattern: bytes[index]) }
        return buffer.withUnsafeBufferPointer { strtod($0.baseAddress!, nil) }
    }

    /// True when the value is the literal `null`.
    public static func isNull(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        range.count == 4 && bytes[range.lowerBound] == UInt8(ascii: "n")
    }

    static func skipWhitespace(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int {
        var index = start
        while index < end {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return index
            }
        }
        return index
    }

    /// The end of the (valid) value starting at `start`.
    static func endOfValue(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int {
        var index = start
        guard index < end else { return end }
        switch bytes[index] {
        case UInt8(ascii: "\""):
            index += 1
            while index < end {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\\") { index += 2; continue }
                index += 1
                if byte == UInt8(ascii: "\"") { return index }
            }
            return end
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            while index < end {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") {
                    index = endOfValue(bytes, index, end)
                    continue
                }
                if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") { depth += 1 }
                if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                    depth -= 1
                    if depth == 0 { return index + 1 }
                }
                index += 1
            }
            return end
        default:
            while index < end {
                switch bytes[index] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D: return index
                default: index += 1
                }
            }
            return end
        }
    }
}
