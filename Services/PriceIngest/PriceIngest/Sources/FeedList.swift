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
        public let retailer: String
        public let url: String
    }

    public let entries: [Entry]

    public init(entries: [Entry]) { self.entries = entries }

    public init(contentsOf url: URL) throws {
        let text = try String(contentsOf: url, encoding: .utf8)
        try self.init(text: text)
    }

    public init(text: String) throws {
        var entries: [Entry] = []
        for (number, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            if fields.isEmpty { continue }
            guard fields.count == 2, fields[1].contains("://") else {
                throw FeedListError(line: number + 1, text: String(rawLine))
            }
            entries.append(Entry(retailer: String(fields[0]), url: String(fields[1])))
        }
        self.entries = entries
    }
}

public struct FeedListError: Error, CustomStringConvertible {
    public let line: Int
    public let text: String
    public var description: String {
        "feeds list line \(line): expected 'RETAILER URL', got '\(text.prefix(80))'"
    }
}
