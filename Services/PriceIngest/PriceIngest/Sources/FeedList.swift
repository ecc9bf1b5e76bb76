import FeedParsing
import Foundation

/// The feeds price-ingest polls: one `retailer URL` pair per line of a text file.
///
///     # retailer   url
///     asda         https://storelocator.asda.com/fuel_prices_data.json
///     shell        file:///srv/feeds/shell.json
///
/// Blank lines and `#` comments are ignored. A malformed line is a configuration error.
public struct FeedList: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        /// The name as the list gives it.
        public let retailer: String
        /// Its slug, the retailer's name in the store (checked when the list is read).
        public let slug: String
        public let url: String
    }

    public let entries: [Entry]

    public init(entries: [Entry]) { self.entries = entries }

    public init(contentsOf url: URL) throws {
        let text = try String(contentsOf: url, encoding: .utf8)
        try self.init(text: text)
    }

    /// The URL schemes a feed may be fetched with (`FeedFetcher`).
    public static let schemes: Set<String> = ["http", "https", "file"]

    /// Reads the list, refusing a line that is not `RETAILER URL`, a retailer name that is no
    /// retailer's, a scheme the fetcher cannot fetch, and two lines for one retailer (each poll
    /// would replace the other's stations): each was taken, and failed at every poll.
    public init(text: String) throws {
        var entries: [Entry] = []
        var lineOf: [String: Int] = [:]
        for (number, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            if fields.isEmpty { continue }
            func refuse(_ reason: String) -> FeedListError {
                FeedListError(line: number + 1, text: String(rawLine), reason: reason)
            }
            guard fields.count == 2, let schemeEnd = fields[1].range(of: "://") else {
                throw refuse("expected 'RETAILER URL'")
            }
            let scheme = fields[1][..<schemeEnd.lowerBound].lowercased()
            guard Self.schemes.contains(scheme) else {
                throw refuse("unsupported URL scheme '\(scheme.prefix(20))' (use http, https or file)")
            }
            // What ingest.feed would refuse of it (no host, another machine's file, not a URL at
            // all: `http://[::1`), refused here, not at every poll.
            if let problem = FeedFetcher.problem(with: String(fields[1])) { throw refuse(problem) }
            let retailer: String
            do {
                retailer = try RetailerName.slug(String(fields[0]))
            } catch {
                throw refuse(error.description)
            }
            if let earlier = lineOf[retailer] {
                throw refuse("retailer '\(retailer)' is listed on line \(earlier) too: one feed per retailer")
            }
            lineOf[retailer] = number + 1
            entries.append(Entry(retailer: String(fields[0]), slug: retailer, url: String(fields[1])))
        }
        self.entries = entries
    }
}

public struct FeedListError: Error, CustomStringConvertible {
    public let line: Int
    public let text: String
    public var reason = "expected 'RETAILER URL'"
    public var description: String {
        "feeds list line \(line): \(reason), got '\(text.prefix(80))'"
    }
}
