/// The bytes of one render: every phrase is UTF-8 appended here and named by its range, so a
/// render builds its sentences with one allocation and no intermediate strings.
struct TextScratch: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes written so far (the next phrase starts here).
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The bytes of `range` (valid until the next append).
    func bytes(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)
    }

    func string(_ range: Range<Int>) -> String {
        String(decoding: bytes(range), as: UTF8.self)
    }

    func string(_ range: Range<Int>?) -> String? {
        guard let range else { return nil }
        return string(range)
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
    mutating func append(_ source: UnsafeBufferPointer<UInt8>) {
        guard let start = source.baseAddress, !source.isEmpty else { return }
        reserve(source.count)
        Self.copy(start, to: base + count, count: source.count)
        count += source.count
    }

    /// Appends a copy of bytes already written (a phrase used again inside a sentence).
    @inline(__always)
    mutating func appendCopy(of range: Range<Int>) {
        reserve(range.count)
        Self.copy(base + range.lowerBound, to: base + count, count: range.count)
        count += range.count
    }

    /// Copies bytes between places that do not overlap: the short runs a render is made of
    /// (up to 16 bytes) with two loads and stores each, not a call to `memcpy`.
    @inline(__always)
    private static func copy(_ source: UnsafePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>, count: Int) {
        let from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(target)
        switch count {
        case 8...16:
            let head = from.loadUnaligned(as: UInt64.self)
            let tail = from.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            to.storeBytes(of: head, as: UInt64.self)
            to.storeBytes(of: tail, toByteOffset: count - 8, as: UInt64.self)
        case 4..<8:
            let head = from.loadUnaligned(as: UInt32.self)
            let tail = from.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            to.storeBytes(of: head, as: UInt32.self)
            to.storeBytes(of: tail, toByteOffset: count - 4, as: UInt32.self)
        case 1..<4:
            target[0] = source[0]
            target[count / 2] = source[count / 2]
            target[count - 1] = source[count - 1]
        case 0:
            break
        default:
            target.update(from: source, count: count)
        }
    }

    @inline(__always)
    mutating func append(byte: UInt8) {
        reserve(1)
        base[count] = byte
        count += 1
    }

    mutating func append(_ text: StaticString) {
        append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func append(text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// The decimal digits of a non-negative `value`, left-padded with zeros to `minimumCount`.
    @inline(__always)
    mutating func append(digitsOf value: Int, minimumCount: Int = 1) {
        guard value < 100, value >= 0, minimumCount <= 2 else { return append(manyDigitsOf: value, minimumCount) }
        // Hours, minutes, days, tenths: most numbers, written in place.
        reserve(2)
        if value >= 10 || minimumCount == 2 {
            base[count] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10)
            count += 1
        }
        base[count] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
        count += 1
    }

    private mutating func append(manyDigitsOf value: Int, _ minimumCount: Int) {
        guard value >= 0 else { return append(text: String(value)) }
        var length = 1
        var power = 10
        while length < 18, value >= power {
            length += 1
            power *= 10
        }
        if value >= power { length += 1 }  // 19 digits
        length = max(length, minimumCount)
        reserve(length)
        var remaining = value
        var position = count + length
        while position > count {
            position -= 1
            let (quotient, digit) = remaining.quotientAndRemainder(dividingBy: 10)
            base[position] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: digit)
            remaining = quotient
        }
        count += length
    }

    /// Runs `write` and returns the range of what it appended.
    @inline(__always)
    mutating func phrase(_ write: (inout TextScratch) -> Void) -> Range<Int> {
        let start = count
        write(&self)
        return start..<count
    }
}
