/// JSON bytes eight at a time (SWAR), for scans that skip ordinary text: each function gives the
/// high bit of every byte of a word (the first byte in the lowest bits) that is one of the bytes
/// it looks for, exact up to the first one found (a borrow only runs from a found byte into the
/// bytes after it), which is all a scan uses: zero means none of the eight.
enum ByteWords {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let highBits: UInt64 = 0x8080_8080_8080_8080

    @inline(__always)
    static func load(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self))
    }

    /// The index of the first byte from `index` that `find` picks, looking eight bytes at a time;
    /// or, when none does, the first index with fewer than eight bytes left before `end` (the
    /// caller goes on byte by byte from either).
    @inline(__always)
    static func skip(_ bytes: UnsafeBufferPointer<UInt8>, from index: Int, to end: Int,
                     until find: (UInt64) -> UInt64) -> Int {
        var index = index
        while index + 8 <= end {
            let found = find(load(bytes, index))
            if found != 0 { return index + found.trailingZeroBitCount >> 3 }
            index += 8
        }
        return index
    }

    /// Bytes of `word` equal to `byte`.
    @inline(__always)
    static func equal(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let difference = word ^ (ones &* UInt64(byte))
        return (difference &- ones) & ~difference & highBits
    }

    @inline(__always)
    static func quoteOrBackslash(_ word: UInt64) -> UInt64 {
        equal(word, UInt8(ascii: "\"")) | equal(word, UInt8(ascii: "\\"))
    }

    /// Quotes and brackets: `[` and `]` differ from `{` and `}` only in bit 0x20.
    @inline(__always)
    static func structural(_ word: UInt64) -> UInt64 {
        let folded = word | (ones &* 0x20)
        return equal(word, UInt8(ascii: "\"")) | equal(folded, UInt8(ascii: "{")) | equal(folded, UInt8(ascii: "}"))
    }

    /// Bytes string text cannot hold as they are: a quote, a backslash, a control character,
    /// anything outside ASCII (checked one by one).
    @inline(__always)
    static func needsALook(_ word: UInt64) -> UInt64 {
        let belowSpace = (word &- ones &* 0x20) & ~word & highBits
        return quoteOrBackslash(word) | belowSpace | (word & highBits)
    }
}
