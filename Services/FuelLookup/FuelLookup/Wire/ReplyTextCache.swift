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
    /// The `serial` of the index the text belongs to (0: none yet). A serial, not a reference:
    /// a replaced index is not kept alive by its text, and no later index can be mistaken for it.
    private var indexSerial: UInt64 = 0
    /// Per station rank: where its text lies in `bytes` (one entry, so one cache line to read).
    private var spans: [Span] = []
    private var bytes: [UInt8] = []
    private(set) var hits: UInt64 = 0
    private(set) var misses: UInt64 = 0

    init(capacityBytes: Int = 48 << 20) {
        self.capacityBytes = capacityBytes
    }

    /// Where a station's text starts in `bytes` and where it ends, plus one (0: not written yet).
    private struct Span {
        var start: UInt32 = 0
        var endPlusOne: UInt32 = 0
    }

    var byteCount: Int { bytes.count + spans.count * MemoryLayout<Span>.stride }

    /// Appends the reply text of `match` to `out`, writing it into the cache first if needed.
    func write(_ ranked: RankedMatch, of answerIndex: PriceIndex, into out: inout JSONWriter) {
        if indexSerial != answerIndex.serial || Int(ranked.rank) >= spans.count { reset(for: answerIndex) }
        let rank = Int(ranked.rank)
        var span = spans[rank]
        if span.endPlusOne == 0 {
            misses += 1
            var text = JSONWriter(capacity: 320)
            Self.write(answerIndex.station(rank: rank), into: &text)
            if bytes.count + text.count > capacityBytes { reset(for: answerIndex) }
            span.start = UInt32(bytes.count)
            text.withBytes { bytes.append(contentsOf: $0) }
            span.endPlusOne = UInt32(bytes.count) + 1
            spans[rank] = span
        } else {
            hits += 1
        }
        let start = Int(span.start), end = Int(span.endPlusOne) - 1
        bytes.withUnsafeBufferPointer { out.raw(UnsafeBufferPointer(rebasing: $0[start..<end])) }
    }

    private func reset(for answerIndex: PriceIndex) {
        indexSerial = answerIndex.serial
        spans = Array(repeating: Span(), count: answerIndex.count)
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
