/// A byte buffer for writing JSON by hand, fast and with exactly controlled number formatting.
struct JSONBytes {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// A JSON string: quoted, with `"`, `\` and control characters escaped; other UTF-8 written as is.
    mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): raw("\\\"")
            case UInt8(ascii: "\\"): raw("\\\\")
            case UInt8(ascii: "\n"): raw("\\n")
            case UInt8(ascii: "\t"): raw("\\t")
            case 0..<0x20:
                raw("\\u00")
                bytes.append(Self.hexDigit(byte >> 4))
                bytes.append(Self.hexDigit(byte & 0xF))
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A decimal number given as an integer scaled by 10^decimals, without trailing zeros
    /// (`53200000` with 6 decimals is written `53.2`; a whole number has no point).
    mutating func fixed(_ scaled: Int64, decimals: Int) {
        var magnitude = scaled.magnitude
        if scaled < 0 { bytes.append(UInt8(ascii: "-")) }
        var fraction: [UInt8] = []
        for _ in 0..<decimals {
            fraction.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        }
        unsigned(magnitude)
        let significant = fraction.drop { $0 == UInt8(ascii: "0") } // least significant digit first
        if !significant.isEmpty {
            bytes.append(UInt8(ascii: "."))
            bytes.append(contentsOf: significant.reversed())
        }
    }

    /// A price in tenths of a penny: `1319` is written `131.9`, `1500` is written `150`.
    mutating func tenths(_ value: Int32) {
        fixed(Int64(value), decimals: 1)
    }

    /// A double in Swift's shortest round-trip form (used for float-noise quirks only).
    mutating func double(_ value: Double) {
        bytes.append(contentsOf: value.description.utf8)
    }

    private mutating func unsigned(_ value: UInt64) {
        var digits: [UInt8] = []
        var remaining = value
        repeat {
            digits.append(UInt8(ascii: "0") + UInt8(remaining % 10))
            remaining /= 10
        } while remaining > 0
        bytes.append(contentsOf: digits.reversed())
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
