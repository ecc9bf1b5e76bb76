import Foundation

/// Reads the members of a JSON object in bytes that `StrictJSON.check` has already accepted,
/// without building any tree: each member's key and the byte range of its value. The hot paths
/// (request envelopes, lookup bodies) use it instead of a full decode.
public struct JSONObjectReader {
    /// A member's key as it stands in the bytes (between its quotes, escapes unresolved), so a
    /// hot path can match it without building a `String`.
    public struct RawKey {
        @usableFromInline let bytes: UnsafeBufferPointer<UInt8>
        /// The key's text between its quotes.
        @usableFromInline let range: Range<Int>
        /// The key with its escapes resolved, for a key written with escapes (nil otherwise):
        /// resolved once, however many names it is compared with.
        @usableFromInline let resolved: String?

        /// The key whose text (between its quotes) is at `range` in `bytes`. Inlinable: every hand
        /// reader makes one per member.
        @inlinable
        public init(bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>, hasEscape: Bool) {
            self.bytes = bytes
            self.range = range
            resolved = hasEscape ? Self.resolve(bytes, range) : nil
        }

        /// The text at `range` with its escapes resolved.
        @usableFromInline
        static func resolve(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
            JSONObjectReader.string(bytes, (range.lowerBound - 1)..<(range.upperBound + 1)) ?? ""
        }

        /// Whether the text holds an escape.
        var hasEscape: Bool { resolved != nil }

        /// True when the key is `name` (inlinable: readers in other modules match keys too).
        @inlinable @inline(__always)
        public func matches(_ name: StaticString) -> Bool {
            let count = name.utf8CodeUnitCount
            if let resolved {
                let expected = UnsafeBufferPointer(start: name.utf8Start, count: count)
                return resolved == String(decoding: expected, as: UTF8.self)
            }
            guard range.count == count, let start = bytes.baseAddress else { return false }
            return memcmp(start + range.lowerBound, name.utf8Start, count) == 0
        }

        /// The key as a `String` (escapes resolved).
        public var text: String {
            resolved ?? String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }
    }

    /// Calls `body` with each member of the object at `range`: its raw key and where its value's
    /// text is. Returns false (after no call, or some) when the value there is not an object.
    /// - Important: `bytes` must be valid JSON (checked by `StrictJSON`); nothing is re-validated.
    @discardableResult
    public static func forEachMember<Failure: Error>(
        _ bytes: UnsafeBufferPointer<UInt8>, in range: Range<Int>,
        _ body: (RawKey, Range<Int>) throws(Failure) -> Void
    ) throws(Failure) -> Bool {
        try forEachMember(bytes, from: range.lowerBound, limit: range.upperBound, body) != nil
    }

    /// `forEachMember` for the object that starts at `start` (after any whitespace), whose end is
    /// not known yet: returns the index just past its closing brace, nil when the value there is
    /// not an object. A reader walking an array of objects so finds each one's end in the same pass.
    /// - Important: `bytes` must be valid JSON (checked by `StrictJSON`); nothing is re-validated.
    public static func forEachMember<Failure: Error>(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, limit: Int,
        _ body: (RawKey, Range<Int>) throws(Failure) -> Void
    ) throws(Failure) -> Int? {
        var index = skipWhitespace(bytes, start, limit)
        guard index < limit, bytes[index] == UInt8(ascii: "{") else { return nil }
        index += 1
        while true {
            index = skipWhitespace(bytes, index, limit)
            guard index < limit else { return nil }
            if bytes[index] == UInt8(ascii: "}") { return index + 1 }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            let keyEnd = endOfValue(bytes, index, limit)
            guard bytes[index] == UInt8(ascii: "\""), keyEnd - index >= 2 else { return nil }
            let keyText = (index + 1)..<(keyEnd - 1)
            let key = RawKey(bytes: bytes, range: keyText, hasEscape: bytes[keyText].contains(UInt8(ascii: "\\")))
            index = skipWhitespace(bytes, keyEnd, limit) + 1  // past ':'
            let valueStart = skipWhitespace(bytes, index, limit)
            let valueEnd = endOfValue(bytes, valueStart, limit)
            try body(key, valueStart..<valueEnd)
            index = valueEnd
        }
    }

    /// Calls `body` with where each element of the array at `range` is. Returns false when the
    /// value there is not an array.
    /// - Important: `bytes` must be valid JSON (checked by `StrictJSON`); nothing is re-validated.
    @discardableResult
    public static func forEachElement<Failure: Error>(
        _ bytes: UnsafeBufferPointer<UInt8>, in range: Range<Int>, _ body: (Range<Int>) throws(Failure) -> Void
    ) throws(Failure) -> Bool {
        try forEachElement(bytes, in: range) { start throws(Failure) -> Int? in
            let end = endOfValue(bytes, start, range.upperBound)
            try body(start..<end)
            return end
        }
    }

    /// Calls `walk` with where each element of the array at `range` starts; `walk` reads the
    /// element and returns where it ends (nil: the reader finds the end itself). Returns false
    /// when the value there is not an array.
    /// - Important: `bytes` must be valid JSON (checked by `StrictJSON`); nothing is re-validated.
    @discardableResult
    public static func forEachElement<Failure: Error>(
        _ bytes: UnsafeBufferPointer<UInt8>, in range: Range<Int>, walking walk: (Int) throws(Failure) -> Int?
    ) throws(Failure) -> Bool {
        var index = skipWhitespace(bytes, range.lowerBound, range.upperBound)
        guard index < range.upperBound, bytes[index] == UInt8(ascii: "[") else { return false }
        index += 1
        while true {
            index = skipWhitespace(bytes, index, range.upperBound)
            guard index < range.upperBound else { return false }
            switch bytes[index] {
            case UInt8(ascii: "]"):
                return true
            case UInt8(ascii: ","):
                index += 1
            default:
                index = try walk(index) ?? endOfValue(bytes, index, range.upperBound)
            }
        }
    }

    /// A string value's text (escapes resolved), or nil when the value is not a string.
    public static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String? {
        guard range.count >= 2, bytes[range.lowerBound] == UInt8(ascii: "\"") else { return nil }
        if isPlainString(bytes, range) {
            let inner = (range.lowerBound + 1)..<(range.upperBound - 1)
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[inner]), as: UTF8.self)
        }
        let data = Data(UnsafeBufferPointer(rebasing: bytes[range]))
        return try? JSONDecoder().decode(String.self, from: data)
    }

    /// True when the value is a string written without escapes: its text between the quotes is
    /// then exactly the string's UTF-8.
    public static func isPlainString(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        guard range.count >= 2, bytes[range.lowerBound] == UInt8(ascii: "\"") else { return false }
        for index in (range.lowerBound + 1)..<(range.upperBound - 1) where bytes[index] == UInt8(ascii: "\\") {
            return false
        }
        return true
    }

    /// A number value, or nil when the value is not a number.
    ///
    /// Numbers of up to 15 significant digits with a small exponent, which is every coordinate
    /// and radius a client sends, are converted exactly without a C call (one multiplication or
    /// division of two exactly representable values is correctly rounded); others go to `strtod`.
    public static func number(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double? {
        guard let first = range.first.map({ bytes[$0] }),
              first == UInt8(ascii: "-") || (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")),
              range.count < 64 else { return nil }
        if let exact = exactNumber(bytes, range) { return exact }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: range.count + 1) { buffer in
            for (offset, index) in range.enumerated() { buffer[offset] = CChar(bitPattern: bytes[index]) }
            buffer[range.count] = 0
            return strtod(buffer.baseAddress!, nil)
        }
    }

    private static let exactPowersOfTen: [Double] = (0...22).map { Double("1e\($0)")! }

    /// The fast path of `number`: nil when the text has more than 15 significant digits, an
    /// exponent part, or a scale beyond 10^22.
    static func exactNumber(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double? {
        var index = range.lowerBound
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var inFraction = false
        while index < range.upperBound {
            let byte = bytes[index]
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                if mantissa != 0 || byte != UInt8(ascii: "0") { digits += 1 }
                guard digits <= 15 else { return nil }
                mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0"))
                if inFraction { fractionDigits += 1 }
            } else if byte == UInt8(ascii: "."), !inFraction {
                inFraction = true
            } else {
                return nil  // an exponent part, or not a number
            }
            index += 1
        }
        guard fractionDigits < exactPowersOfTen.count else { return nil }
        let magnitude = Double(mantissa) / exactPowersOfTen[fractionDigits]
        return negative ? -magnitude : magnitude
    }

    /// The literal `true` or `false` of a checked value; nil for anything else.
    public static func bool(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool? {
        if range.count == 4, bytes[range.lowerBound] == UInt8(ascii: "t") { return true }
        if range.count == 5, bytes[range.lowerBound] == UInt8(ascii: "f") { return false }
        return nil
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

    /// The end of the (valid) value starting at `start`. Strings and containers are crossed
    /// eight bytes at a time up to the next byte that matters (a quote or backslash inside a
    /// string, a quote or bracket between them), so a reader pays little for the values it
    /// passes over.
    static func endOfValue(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int {
        guard start < end else { return end }
        switch bytes[start] {
        case UInt8(ascii: "\""):
            return endOfString(bytes, start, end)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            while index < end {
                index = ByteWords.skip(bytes, from: index, to: end, until: ByteWords.structural)
                guard index < end else { break }
                switch bytes[index] {
                case UInt8(ascii: "\""):
                    index = endOfString(bytes, index, end)
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default:
                    break
                }
                index += 1
            }
            return end
        default:
            var index = start
            while index < end {
                switch bytes[index] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D: return index
                default: index += 1
                }
            }
            return end
        }
    }

    /// The end of the string whose opening quote is at `start` (just past its closing quote).
    static func endOfString(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int {
        var index = start + 1
        while index < end {
            index = ByteWords.skip(bytes, from: index, to: end, until: ByteWords.quoteOrBackslash)
            guard index < end else { break }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\") {
                index += 2
                continue
            }
            index += 1
            if byte == UInt8(ascii: "\"") { return index }
        }
        return end
    }
}
