import Foundation
import FeedParsing
import TestSupport

/// The real CMA captures in `../shared/data/real/` (every `.json` file; the flattened `.jsonl` is not a feed).
enum RealFeeds {
    /// Relative paths under `real/`, e.g. `uk-cma-snapshot-2025-10-09/asda.json`; empty when the data is absent.
    static let allFiles: [String] = {
        guard SharedData.isPresent else { return [] }
        let root = SharedData.real("")
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".json") }.sorted()
    }()

    /// The retailer a file belongs to: the snapshot file name (`karan-retail`) or the word after
    /// `uk-cma-` in a single capture (`uk-cma-sgn-2025-12-06.json` -> `sgn`).
    static func retailer(of file: String) -> String {
        let base = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        guard base.hasPrefix("uk-cma-") else { return base }
        return String(base.dropFirst("uk-cma-".count).split(separator: "-").first ?? "unknown")
    }

    static func data(_ file: String) throws -> Data { try Data(contentsOf: SharedData.real(file)) }

    /// A fetch time after every capture (so old captures carry a `stale_feed` warning, which no test minds).
    static let fetchedAt = Date(timeIntervalSince1970: 1_788_220_800) // 2026-09-01T00:00:00Z

    /// Every file parsed once, shared by the tests (debug builds parse slowly); a file that failed maps to
    /// its error.
    private static let parsed: [String: Result<ParsedFeed, FeedError>] = {
        var results: [String: Result<ParsedFeed, FeedError>] = [:]
        for file in allFiles {
            guard let data = try? data(file) else { continue }
            results[file] = Result { () throws(FeedError) in
                try FeedParser().parse(data, retailer: retailer(of: file), fetchedAt: fetchedAt)
            }
        }
        return results
    }()

    /// The parsed feed of a file.
    static func parse(_ file: String) throws -> ParsedFeed {
        guard let result = parsed[file] else { throw CocoaError(.fileReadNoSuchFile) }
        return try result.get()
    }

    /// The raw JSON object of a file, for comparing with what the parser kept.
    static func rawStations(_ file: String) throws -> [[String: Any]] {
        let object = try JSONSerialization.jsonObject(with: data(file)) as? [String: Any]
        return object?["stations"] as? [[String: Any]] ?? []
    }
}
