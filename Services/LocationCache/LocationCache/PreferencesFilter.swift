/// The users who may have a preferences row: a Bloom filter over their ids, so the reply to a
/// put (which carries the user's preferences) skips the query for the many users who never set
/// any. It never says "no" for a user who has a row; it says "maybe" for about 1 in 70 who do not.
///
/// It holds no user id, only bits set by a keyed hash whose key is new in every process. Rows
/// are added through `insert` before they are written; removed rows leave their bits (a
/// "maybe" that the query then answers).
struct PreferencesFilter {
    /// Bits per expected user: with two probes, false "maybe"s stay near 1.4%.
    private static let bitsPerUser = 16
    private static let minimumBits = 1 << 16

    private var words: [UInt64]
    private let mask: UInt64
    private let seed: (UInt64, UInt64)
    /// Ids inserted so far (repeats included).
    private(set) var insertions = 0

    /// An empty filter sized for `expectedUsers`.
    init(expectedUsers: Int) {
        var bits = Self.minimumBits
        while bits / Self.bitsPerUser < expectedUsers, bits < 1 << 32 { bits <<= 1 }
        words = Array(repeating: 0, count: bits / 64)
        mask = UInt64(bits - 1)
        seed = (UInt64.random(in: .min ... .max), UInt64.random(in: .min ... .max))
    }

    /// True once it holds more ids than it was sized for (its "maybe"s then grow more frequent).
    var isCrowded: Bool { insertions > words.count * 64 / Self.bitsPerUser }

    mutating func insert(_ user: String) {
        let (first, second) = probes(user)
        words[Int(first >> 6)] |= 1 << (first & 63)
        words[Int(second >> 6)] |= 1 << (second & 63)
        insertions += 1
    }

    /// False only when `user` was never inserted.
    func mayContain(_ user: String) -> Bool {
        let (first, second) = probes(user)
        return words[Int(first >> 6)] & (1 << (first & 63)) != 0
            && words[Int(second >> 6)] & (1 << (second & 63)) != 0
    }

    /// Two bit positions from one keyed hash of the id's UTF-8 bytes (the bytes SQLite compares).
    private func probes(_ user: String) -> (UInt64, UInt64) {
        var text = user
        let hash = text.withUTF8 { Self.hash(UnsafeRawBufferPointer($0), seed: seed) }
        return (hash & mask, (hash >> 32 | hash << 32) & mask)
    }

    /// A fast keyed 64-bit mix of `bytes`, eight at a time (it only has to spread ids over the
    /// bits; the key keeps anyone from choosing ids that collide).
    static func hash(_ bytes: UnsafeRawBufferPointer, seed: (UInt64, UInt64)) -> UInt64 {
        var state = seed.0 ^ (UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15)
        var offset = 0
        while offset + 8 <= bytes.count {
            state = mix(state ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self), seed.1)
            offset += 8
        }
        if offset < bytes.count {
            var tail: UInt64 = 0
            for index in offset..<bytes.count { tail = tail << 8 | UInt64(bytes[index]) }
            state = mix(state ^ tail, seed.1)
        }
        return mix(state, seed.0)
    }

    /// One round of SplitMix64's finalizer over `value ^ key`.
    private static func mix(_ value: UInt64, _ key: UInt64) -> UInt64 {
        var bits = value ^ key
        bits = (bits ^ bits >> 30) &* 0xBF58_476D_1CE4_E5B9
        bits = (bits ^ bits >> 27) &* 0x94D0_49BB_1331_11EB
        return bits ^ bits >> 31
    }
}
