import Messages

/// Puts stations in id order (String `<`), fast: ids are sorted by a 16-byte prefix key first and
/// compared as strings only when keys tie, which for short ASCII ids means only duplicates.
enum StationOrdering {
    private struct Entry {
        /// The id's first 16 UTF-8 bytes, big-endian, zero-padded; zero for every entry when some
        /// id is not ASCII (byte order equals String order only for ASCII, which is already NFC).
        var high: UInt64
        var low: UInt64
        var position: Int
    }

    /// Input positions of the stations with a usable location, one per id (the last in input
    /// order wins), in ascending id order.
    static func locatedUniquePositionsInIDOrder(_ input: StationGroups) -> [Int] {
        var entries: [Entry] = []
        entries.reserveCapacity(input.count)
        var allASCII = true
        for position in input.indices {
            guard let location = input[position].location, location.isOnEarth else { continue }
            var entry = Entry(high: 0, low: 0, position: position)
            var offset = 0
            for byte in input[position].id.utf8 {
                if byte >= 0x80 { allASCII = false }
                if offset < 8 {
                    entry.high |= UInt64(byte) << (56 - 8 * offset)
                } else if offset < 16 {
                    entry.low |= UInt64(byte) << (56 - 8 * (offset - 8))
                }
                offset += 1
            }
            entries.append(entry)
        }
        if !allASCII {
            for index in entries.indices { (entries[index].high, entries[index].low) = (0, 0) }
        }
        entries.sort { a, b in
            if a.high != b.high { return a.high < b.high }
            if a.low != b.low { return a.low < b.low }
            return input[a.position].id < input[b.position].id
        }
        return latestPerID(entries, input)
    }

    /// Keeps, from each run of equal ids, the entry that came last in the input.
    private static func latestPerID(_ entries: [Entry], _ input: StationGroups) -> [Int] {
        var kept: [Int] = []
        kept.reserveCapacity(entries.count)
        var runStart = 0
        while runStart < entries.count {
            let first = entries[runStart]
            var latest = first.position
            var next = runStart + 1
            while next < entries.count, entries[next].high == first.high, entries[next].low == first.low,
                  input[entries[next].position].id == input[first.position].id {
                latest = max(latest, entries[next].position)
                next += 1
            }
            kept.append(latest)
            runStart = next
        }
        return kept
    }
}
