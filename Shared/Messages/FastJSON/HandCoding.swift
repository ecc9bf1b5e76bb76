import Foundation

/// A message that writes its own JSON: byte for byte what `JSONCoding`'s encoder writes for it
/// (keys sorted, absent optionals left out), with no encoder and no intermediate values.
/// `JSONCoding.encode` and the reply and request writers use it wherever a type has it. A number
/// that is not finite is written `null` and marks the writer (`wroteNonFinite`): callers then
/// fall back to the encoder, which refuses the value as it always did.
public protocol JSONWritable: Encodable {
    func writeJSON(to writer: inout JSONWriter)
}

/// A message that reads itself from bytes `StrictJSON` has checked.
///
/// It reads the shapes senders write; anything else (a field missing or of another type, an
/// integer written with a fraction, an unusual time) throws `JSONUnreadable`, and the caller
/// decodes with `JSONDecoder` instead, which gives the same value or the error it always gave.
/// So a reader only has to be right about what it accepts.
public protocol JSONReadable: Decodable {
    init(json: JSONSlice) throws(JSONUnreadable)
}

/// "Not a shape the hand reader takes": the caller falls back to `JSONDecoder`.
public struct JSONUnreadable: Error, Sendable {
    public init() {}
}

/// One JSON value inside bytes `StrictJSON` has checked, read without building a tree.
public struct JSONSlice {
    public let bytes: UnsafeBufferPointer<UInt8>
    public let range: Range<Int>
    /// Every member of every object in `bytes`, as the check listed them (nil: members are found
    /// by walking the bytes). Values inside this one are read with it too.
    public let index: MemberIndex?

    public init(bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>, index: MemberIndex? = nil) {
        self.bytes = bytes
        self.range = range
        self.index = index
    }

    public var isNull: Bool { JSONObjectReader.isNull(bytes, range) }

    public func double() throws(JSONUnreadable) -> Double {
        guard let value = JSONObjectReader.number(bytes, range), value.isFinite else { throw JSONUnreadable() }
        // A zero written with an exponent (`0e1`, or `1e-400` that underflows) is refused by
        // JSONDecoder: left to it, for the same answer.
        if value == 0, bytes[range].contains(where: { $0 | 0x20 == UInt8(ascii: "e") }) { throw JSONUnreadable() }
        return value
    }

    public func string() throws(JSONUnreadable) -> String {
        guard let value = JSONObjectReader.string(bytes, range) else { throw JSONUnreadable() }
        return value
    }

    public func bool() throws(JSONUnreadable) -> Bool {
        switch bytes[range.lowerBound] {
        case UInt8(ascii: "t"): return true
        case UInt8(ascii: "f"): return false
        default: throw JSONUnreadable()
        }
    }

    /// A whole number written as digits only (an optional minus, no fraction, no exponent).
    public func int() throws(JSONUnreadable) -> Int {
        var index = range.lowerBound
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard (1...18).contains(range.upperBound - index) else { throw JSONUnreadable() }
        var value = 0
        while index < range.upperBound {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { throw JSONUnreadable() }
            value = value * 10 + Int(digit)
            index += 1
        }
        return negative ? -value : value
    }

    public func uint64() throws(JSONUnreadable) -> UInt64 {
        let value = try int()
        guard value >= 0 else { throw JSONUnreadable() }
        return UInt64(value)
    }

    /// A time as `JSONCoding` reads it. `2025-10-09T09:45:17Z`, the form every service writes,
    /// is read digit by digit; any other text goes to `JSONCoding.parseISO8601`, as the decoder's
    /// date strategy does.
    public func date() throws(JSONUnreadable) -> Date {
        if let date = utcSeconds() { return date }
        guard let date = JSONCoding.parseISO8601(try string()) else { throw JSONUnreadable() }
        return date
    }

    /// `"YYYY-MM-DDTHH:MM:SSZ"` with a Gregorian year and a day that exists, else nil.
    private func utcSeconds() -> Date? {
        CivilCalendar.utcTimestamp(bytes, range)
    }

    /// A string naming one of an enumeration's cases.
    public func choice<Choice: RawRepresentable>(_ type: Choice.Type) throws(JSONUnreadable) -> Choice
    where Choice.RawValue == String {
        guard let value = Choice(rawValue: try string()) else { throw JSONUnreadable() }
        return value
    }

    public func value<Value: JSONReadable>(_ type: Value.Type) throws(JSONUnreadable) -> Value {
        try Value(json: self)
    }

    /// The value, or nil for `null`: `try value.nonNull?.double()` reads an optional field as
    /// `decodeIfPresent` does.
    public var nonNull: JSONSlice? { isNull ? nil : self }

    /// Calls `body` with each member of the object. Throws when the value is not an object, and
    /// for what JSONDecoder reads its own way: a key written with escapes (one may not even
    /// resolve), a key given twice (the decoder keeps the first), more than 32 members.
    public func forEachMember(_ body: (JSONObjectReader.RawKey, JSONSlice) throws(JSONUnreadable) -> Void)
    throws(JSONUnreadable) {
        let bytes = self.bytes, index = self.index
        let isObject = try withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: 32) {
            seen throws(JSONUnreadable) -> Bool in
            var count = 0
            func visit(_ key: JSONObjectReader.RawKey, _ value: Range<Int>) throws(JSONUnreadable) {
                guard !key.hasEscape, count < seen.count else { throw JSONUnreadable() }
                for earlier in 0..<count where seen[earlier].count == key.range.count
                    && memcmp(bytes.baseAddress! + seen[earlier].lowerBound, bytes.baseAddress! + key.range.lowerBound,
                              key.range.count) == 0 {
                    throw JSONUnreadable()
                }
                seen[count] = key.range
                count += 1
                try body(key, JSONSlice(bytes: bytes, range: value, index: index))
            }
            if let index, !range.isEmpty, bytes[range.lowerBound] == UInt8(ascii: "{") {
                try index.forEachMember(ofObjectAt: range) { member throws(JSONUnreadable) in
                    try visit(JSONObjectReader.RawKey(bytes: bytes, range: member.key, hasEscape: member.keyHasEscape),
                              member.value)
                }
                return true
            }
            return try JSONObjectReader.forEachMember(bytes, in: range) { key, value throws(JSONUnreadable) in
                try visit(key, value)
            }
        }
        guard isObject else { throw JSONUnreadable() }
    }

    /// The elements of an array (throws when the value is not an array).
    public func array<Element: JSONReadable>(of type: Element.Type) throws(JSONUnreadable) -> [Element] {
        var elements: [Element] = []
        let bytes = self.bytes
        let isArray = try JSONObjectReader.forEachElement(bytes, in: range) { element throws(JSONUnreadable) in
            elements.append(try Element(json: JSONSlice(bytes: bytes, range: element, index: index)))
        }
        guard isArray else { throw JSONUnreadable() }
        return elements
    }
}

extension JSONReadable {
    /// Reads the value at `range` of checked bytes: by hand, or with `JSONDecoder` for a shape
    /// the hand reader does not take (whose error, if any, is thrown).
    @inlinable
    public static func read(checked bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>,
                            index: MemberIndex? = nil) throws -> Self {
        if let value = try? Self(json: JSONSlice(bytes: bytes, range: range, index: index)) { return value }
        return try JSONCoding.makeDecoder().decode(Self.self, from: Data(UnsafeBufferPointer(rebasing: bytes[range])))
    }
}

extension JSONWriter {
    /// Writes `value` by hand when its type can, else with `JSONCoding`'s encoder (which also
    /// gives the error for a number that is not finite). Inlinable, so that where the caller
    /// knows the type the check for a hand writer is decided when compiling, not at run time.
    @inlinable
    public mutating func encodable<Value: Encodable>(_ value: Value) throws {
        if let writable = value as? any JSONWritable {
            let before = wroteNonFinite
            writable.writeJSON(to: &self)
            if wroteNonFinite && !before { _ = try JSONCoding.makeEncoder().encode(value) }
        } else {
            raw(try JSONCoding.makeEncoder().encode(value))
        }
    }

    /// Starts an object's member: a comma unless `first`, then `"name":` (the caller's ASCII
    /// names, written as they are). Members go in sorted order, as `JSONCoding`'s encoder writes.
    public mutating func key(_ name: StaticString, first: inout Bool) {
        if !first { byte(UInt8(ascii: ",")) }
        first = false
        byte(UInt8(ascii: "\""))
        raw(name)
        raw("\":")
    }
}
