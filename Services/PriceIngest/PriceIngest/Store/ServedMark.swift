import Foundation

/// The newest version this data directory's store has served, kept beside the database
/// (`price-ingest.served`: `<store id> <version>`), outside it, so that a database put back from
/// an older copy is told apart from the one replicas have seen.
///
/// A restored store counts its versions on from its own, older, number: its next ingest reused a
/// version a replica already held for other prices, and the replica kept those for good, in
/// step by every measure it had (an outside chaos test). Finding the database behind the mark,
/// the store takes a new identity, and every replica reloads everything from it.
struct ServedMark {
    let fileURL: URL

    init(directory: URL) {
        fileURL = directory.appendingPathComponent("price-ingest.served")
    }

    /// The store id and version last written, or nil (no mark yet, or unreadable).
    func read() -> (storeID: String, version: UInt64)? {
        guard let text = try? String(contentsOf: fileURL, encoding: .utf8) else { return nil }
        let fields = text.split(whereSeparator: \.isWhitespace)
        guard fields.count == 2, let version = UInt64(fields[1]) else { return nil }
        return (String(fields[0]), version)
    }

    /// Best effort: a mark not written only means a later restore goes unnoticed.
    func write(storeID: String, version: UInt64) {
        try? Data("\(storeID) \(version)\n".utf8).write(to: fileURL, options: .atomic)
    }
}
