import Messages

/// The stations' part of lookup replies, kept once written: `"station":{...},"updated":"..."}`,
/// the tail of a result object, which never changes while an index lives. Answering copies it
/// instead of escaping seven strings and formatting two coordinates and a date per result.
///
/// Bounded: the text of one index, at most `capacityBytes` of it (all of the real UK feeds take
/// under 1 MB); when full it starts again, so memory never grows with the station count. Owned by
/// the serving loop's thread, like the socket.
final class ReplyTextCache {
    let capacityBytes: Int
    /// The index the text belongs to (weak: a replaced index is not kept alive by its text, and
    /// an address reused by a later index can never be mistaken for it).
    private weak var index: PriceIndex?
    /// Per station rank: where its text ends in `bytes`, plus one (0: not written yet).
    private var ends: [UInt32] = []
    private var starts: [UInt32] = []
    private var bytes: [UInt8] = []
    private(set) var hits: UInt64 = 0
    private(set) var misses: UInt64 = 0

    init(capacityBytes: Int = 48 << 20) {
        self.capacityBytes = capacityBytes
    }

    var byteCount: Int { bytes.count + (ends.count + starts.count) * MemoryLayout<UInt32>.stride }

    /// Appends the reply text of `match` to `out`, writing it into the cache first if needed.
    func write(_ ranked: RankedMatch, of answerIndex: PriceIndex, into out: inout JSONWriter) {
        if index !== answerIndex || Int(ranked.rank) >= ends.count { reset(for: answerIndex) }
        let rank = Int(ranked.rank)
        if ends[rank] == 0 {
            misses += 1
            var text = JSONWriter(capacity: 320)
            Self.write(answerIndex.station(rank: rank), into: &text)
            if bytes.count + text.count > capacityBytes { reset(for: answerIndex) }
            starts[rank] = UInt32(bytes.count)
            text.withBytes { bytes.append(contentsOf: $0) }
            ends[rank] = UInt32(bytes.count) + 1
        } else {
            hits += 1
        }
        let start = Int(starts[rank]), end = Int(ends[rank]) - 1
        bytes.withUnsafeBufferPointer { out.raw(UnsafeBufferPointer(rebasing: $0[start..<end])) }
    }

    private func reset(for answerIndex: PriceIndex) {
        index = answerIndex
        ends = Array(repeating: 0, count: answerIndex.count)
        starts = Array(repeating: 0, count: answerIndex.count)
        bytes.removeAll(keepingCapacity: bytes.capacity <= capacityBytes)
    }

    /// The tail of a result object, as `JSONCoding` writes it (sorted keys).
    static func write(_ station: Station, into out: inout JSONWriter) {
        out.raw(#""station":"#)
        LookupHandler.summary(station).writeJSON(to: &out)
        out.raw(#","updated":"#)
        out.date(station.updated)
        out.raw("}")
    }
}
