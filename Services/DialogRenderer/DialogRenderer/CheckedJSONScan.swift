import Foundation
import Messages

/// Small steps over JSON text that `StrictJSON` has already accepted (so nothing is validated
/// again): the reading of `dialog.render` bodies straight from the wire is built from them.
enum CheckedJSONScan {
    @inline(__always)
    static func skipWhitespace(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int, _ end: Int) -> Int {
        var index = index
        // Every byte of JSON text below 0x21 outside a string is whitespace.
        while index < end, bytes[index] <= 0x20 { index += 1 }
        return index
    }

    /// The end (just past the closing quote) of the string whose opening quote is at `start`,
    /// and whether the string has escapes. Eight bytes at a time up to a quote or backslash.
    static func endOfString(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int,
                            _ end: Int) -> (end: Int, hasEscape: Bool) {
        var index = start + 1
        var hasEscape = false
        guard let base = bytes.baseAddress else { return (end, false) }
        while index < end {
            while index + 8 <= end {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                let found = bytesEqual(word, UInt8(ascii: "\"")) | bytesEqual(word, UInt8(ascii: "\\"))
                if found != 0 {
                    index += found.trailingZeroBitCount >> 3
                    break
                }
                index += 8
            }
            guard index < end else { break }
            switch bytes[index] {
            case UInt8(ascii: "\""): return (index + 1, hasEscape)
            case UInt8(ascii: "\\"):
                hasEscape = true
                index += 2
            default: index += 1
            }
        }
        return (end, hasEscape)
    }

    /// The high bit of each byte of `word` equal to `byte`, exact up to the first one found.
    @inline(__always)
    private static func bytesEqual(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let difference = word ^ (ones &* UInt64(byte))
        return (difference &- ones) & ~difference & (ones &* 0x80)
    }

    /// The end of the number (or `true`, `false`, `null`) starting at `start`.
    static func endOfNumber(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int {
        var index = start
        while index < end {
            let byte = bytes[index]
            if byte <= 0x20 || byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                return index
            }
            index += 1
        }
        return end
    }

    /// The object member key whose opening quote is at `start`: its text (nil when it has an
    /// escape) and where the member's value starts.
    static func key(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int,
                    _ end: Int) -> (text: Range<Int>, valueStart: Int)? {
        guard bytes[start] == UInt8(ascii: "\"") else { return nil }
        let key = endOfString(bytes, start, end)
        guard !key.hasEscape else { return nil }
        let colon = skipWhitespace(bytes, key.end, end)
        return ((start + 1)..<(key.end - 1), skipWhitespace(bytes, colon + 1, end))
    }

    /// Whether the text at `range` is `name`: for the short names of fields, with two loads
    /// from each side (overlapping for lengths that are not a power of two), not a call.
    @inline(__always)
    static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ name: StaticString) -> Bool {
        let count = range.count
        guard count == name.utf8CodeUnitCount, let base = bytes.baseAddress else { return false }
        let text = UnsafeRawPointer(base + range.lowerBound), expected = UnsafeRawPointer(name.utf8Start)
        switch count {
        case 8...16:
            return text.loadUnaligned(as: UInt64.self) == expected.loadUnaligned(as: UInt64.self)
                && text.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                    == expected.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        case 4..<8:
            return text.loadUnaligned(as: UInt32.self) == expected.loadUnaligned(as: UInt32.self)
                && text.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
                    == expected.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
        case 0..<4:
            for offset in 0..<count where text.load(fromByteOffset: offset, as: UInt8.self)
                != expected.load(fromByteOffset: offset, as: UInt8.self) {
                return false
            }
            return true
        default:
            return memcmp(text, expected, count) == 0
        }
    }
}
