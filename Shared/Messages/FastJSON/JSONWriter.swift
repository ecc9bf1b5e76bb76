import Foundation

/// Appends JSON text to a byte buffer by hand, for replies on hot paths (a lookup answer is
/// written in one pass with no encoder and no intermediate values). Callers write keys in
/// sorted order so the output matches `JSONCoding`'s encoder.
///
/// The buffer is the writer's own memory (it is not copyable): an append is a capacity check and
/// a copy, with none of an array's per-call bookkeeping.
public struct JSONWriter: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes written so far.
    public private(set) var count = 0
    /// Set once a number that is not finite was written (as `null`): `JSONEncoder` refuses such
    /// a value, so callers that promise its output fall back to it (see `JSONCoding.encode`).
    public private(set) var wroteNonFinite = false

    public init(capacity: Int = 512) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// What has been written, as an array.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    public var data: Data { Data(bytes: base, count: count) }

    /// Calls `body` with what has been written, without copying it.
    public func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        body(UnsafeBufferPointer(start: base, count: count))
    }

    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if count + extra > capacity { grow(to: count + extra) }
    }

    private mutating func grow(to needed: Int) {
        let larger = max(needed, capacity * 2)
        let replacement = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        replacement.update(from: base, count: count)
        base.deallocate()
        base = replacement
        capacity = larger
    }

    @inline(__always)
    private mutating func append(_ source: UnsafeBufferPointer<UInt8>) {
        guard let start = source.baseAddress, !source.isEmpty else { return }
        reserve(source.count)
        (base + count).update(from: start, count: source.count)
        count += source.count
    }

    @inline(__always)
    public mutating func byte(_ value: UInt8) {
        reserve(1)
        base[count] = value
        count += 1
    }

    public mutating func raw(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Bytes as they are (no generic dispatch: callers in other modules reach this one).
    public mutating func raw(_ bytes: UnsafeBufferPointer<UInt8>) {
        append(bytes)
    }

    /// A string's UTF-8 as it is (the caller's ASCII names and ids, never escaped).
    public mutating func raw(_ text: String.UTF8View) {
        let copied: Void? = text.withContiguousStorageIfAvailable { append($0) }
        if copied == nil {
            for value in text { byte(value) }
        }
    }

    public mutating func raw<Bytes: Sequence>(_ other: Bytes) where Bytes.Element == UInt8 {
        let copied: Void? = other.withContiguousStorageIfAvailable { append($0) }
        if copied == nil {
            for value in other { byte(value) }
        }
    }

    /// A JSON string with the escapes RFC 8259 requires (and `/` left as is).
    public mutating func string(_ text: String) {
        let written: Void? = text.utf8.withContiguousStorageIfAvailable { escaped($0) }
        if written == nil {
            var copy = text
            copy.withUTF8 { escaped($0) }
        }
    }

    private mutating func escaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        reserve(utf8.count + 2)
        byte(UInt8(ascii: "\""))
        var runStart = 0
        for index in 0..<utf8.count {
            let value = utf8[index]
            guard value < 0x20 || value == 0x22 || value == 0x5C else { continue }
            append(UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
            escape(value)
            runStart = index + 1
        }
        append(UnsafeBufferPointer(rebasing: utf8[runStart...]))
        byte(UInt8(ascii: "\""))
    }

    private mutating func escape(_ value: UInt8) {
        switch value {
        case 0x22: raw("\\\"")
        case 0x5C: raw("\\\\")
        case 0x0A: raw("\\n")
        case 0x0D: raw("\\r")
        case 0x09: raw("\\t")
        case 0x08: raw("\\b")
        case 0x0C: raw("\\f")
        default:
            let hex: StaticString = "0123456789abcdef"
            raw("\\u00")
            byte(hex.utf8Start[Int(value >> 4)])
            byte(hex.utf8Start[Int(value & 0xF)])
        }
    }

    /// A finite number in its shortest round-trip form (non-finite values are written as null),
    /// the text `Double.description` gives without its trailing `.0`.
    ///
    /// Whole numbers and numbers of up to six decimals (prices, distances, coordinates) are
    /// written digit by digit: for them the decimal text with the fewest decimals that reads back
    /// as the same value is the shortest form, and no other text of that length does.
    public mutating func number(_ value: Double) {
        guard value.isFinite else {
            wroteNonFinite = true
            return raw("null")
        }
        if value == 0 { return value.sign == .minus ? raw("-0") : raw("0") }
        // Up to 2^53 `description` writes whole numbers in full, with a `.0` the encoder drops.
        if value == value.rounded(), abs(value) <= 0x1p53 { return integer(Int64(value)) }
        let magnitude = abs(value)
        if magnitude >= 1e-4, magnitude < 1e9 {
            for decimals in 1...6 {
                let scaled = (magnitude * Self.powersOfTen[decimals]).rounded()
                if scaled / Self.powersOfTen[decimals] == magnitude {
                    if value < 0 { byte(UInt8(ascii: "-")) }
                    fixedPoint(UInt64(scaled), decimals: decimals)
                    return
                }
            }
        }
        raw(value.description.utf8)
    }

    private static let powersOfTen: [Double] = (0...6).map { Double("1e\($0)")! }

    /// `scaled / 10^decimals` with exactly `decimals` digits after the point.
    private mutating func fixedPoint(_ scaled: UInt64, decimals: Int) {
        var divisor: UInt64 = 1
        for _ in 0..<decimals { divisor *= 10 }
        digits(scaled / divisor, minimumCount: 1)
        byte(UInt8(ascii: "."))
        digits(scaled % divisor, minimumCount: decimals)
    }

    public mutating func integer<Value: BinaryInteger>(_ value: Value) {
        guard let value = Int64(exactly: value) else { return raw(String(value).utf8) }
        if value < 0 { byte(UInt8(ascii: "-")) }
        digits(value.magnitude, minimumCount: 1)
    }

    /// The decimal digits of `value`, left-padded with zeros to `minimumCount`.
    private mutating func digits(_ value: UInt64, minimumCount: Int) {
        var length = 1
        var rest = value / 10
        while rest > 0 {
            length += 1
            rest /= 10
        }
        length = max(length, minimumCount)
        reserve(length)
        var remaining = value
        var position = count + length
        while position > count {
            position -= 1
            base[position] = UInt8(ascii: "0") + UInt8(remaining % 10)
            remaining /= 10
        }
        count += length
    }

    /// A date as a JSON string, ISO-8601 in UTC to the second (`"2025-10-09T09:45:17Z"`), as
    /// `JSONCoding` writes it: digit by digit for the years 1583 to 9999, through Foundation's
    /// formatter otherwise (it writes dates before the Gregorian calendar in the Julian one).
    public mutating func date(_ date: Date) {
        let time = CivilCalendar.utc(date)
        guard (1583...9999).contains(time.year) else {
            return string(JSONCoding.formatISO8601(date))
        }
        byte(UInt8(ascii: "\""))
        digits(UInt64(time.year), minimumCount: 4)
        byte(UInt8(ascii: "-"))
        digits(UInt64(time.month), minimumCount: 2)
        byte(UInt8(ascii: "-"))
        digits(UInt64(time.day), minimumCount: 2)
        byte(UInt8(ascii: "T"))
        digits(UInt64(time.hour), minimumCount: 2)
        byte(UInt8(ascii: ":"))
        digits(UInt64(time.minute), minimumCount: 2)
        byte(UInt8(ascii: ":"))
        digits(UInt64(time.second), minimumCount: 2)
        byte(UInt8(ascii: "Z"))
        byte(UInt8(ascii: "\""))
    }
}
