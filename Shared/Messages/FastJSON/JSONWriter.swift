import Foundation

/// Appends JSON text to a byte buffer by hand, for replies on hot paths (a lookup answer is
/// written in one pass with no encoder and no intermediate values). Callers write keys in
/// sorted order so the output matches `JSONCoding`'s encoder.
public struct JSONWriter {
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 512) {
        bytes.reserveCapacity(capacity)
    }

    public mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    public mutating func raw<Bytes: Sequence>(_ other: Bytes) where Bytes.Element == UInt8 {
        bytes.append(contentsOf: other)
    }

    /// A JSON string with the escapes RFC 8259 requires (and `/` left as is).
    public mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var runStart = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                escape(byte)
                runStart = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func escape(_ byte: UInt8) {
        switch byte {
        case 0x22: raw("\\\"")
        case 0x5C: raw("\\\\")
        case 0x0A: raw("\\n")
        case 0x0D: raw("\\r")
        case 0x09: raw("\\t")
        default:
            let hex = Array("0123456789abcdef".utf8)
            raw("\\u00")
            bytes.append(hex[Int(byte >> 4)])
            bytes.append(hex[Int(byte & 0xF)])
        }
    }

    /// A finite number in its shortest round-trip form (non-finite values are written as null).
    public mutating func number(_ value: Double) {
        guard value.isFinite else { return raw("null") }
        if value == value.rounded(), abs(value) < 1e15 {
            integer(Int64(value))
        } else {
            raw(value.description.utf8)
        }
    }

    public mutating func integer<Value: BinaryInteger>(_ value: Value) {
        raw(String(value).utf8)
    }

    public var data: Data { Data(bytes) }
}
