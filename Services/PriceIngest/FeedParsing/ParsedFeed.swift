import Foundation
import Messages

/// One retailer's feed after parsing: the stations kept and a report of what was refused or odd.
public struct ParsedFeed: Sendable, Codable, Hashable {
    /// The retailer slug (`asda`, `esso-tesco-alliance`).
    public var retailer: String
    /// The feed's `last_updated` (read in Europe/London unless it names its offset), or the fetch
    /// time when it has none.
    public var updated: Date
    /// When the caller fetched the feed.
    public var fetchedAt: Date
    /// Every kept record, in feed order, including those whose `location` is nil.
    public var stations: [Station]
    /// Records refused entirely, counted by `RecordRefusal` raw value.
    public var refused: [String: Int]
    /// Warnings counted by `FeedWarning` raw value.
    public var warnings: [String: Int]
    /// The first few human examples per refusal reason.
    public var refusedExamples: [String: [String]]
    /// The first few human examples per warning kind.
    public var warningExamples: [String: [String]]

    public init(retailer: String, updated: Date, fetchedAt: Date, stations: [Station],
                refused: [String: Int], warnings: [String: Int],
                refusedExamples: [String: [String]], warningExamples: [String: [String]]) {
        self.retailer = retailer
        self.updated = updated
        self.fetchedAt = fetchedAt
        self.stations = stations
        self.refused = refused
        self.warnings = warnings
        self.refusedExamples = refusedExamples
        self.warningExamples = warningExamples
    }

    /// Stations kept.
    public var acceptedCount: Int { stations.count }
    /// Records refused.
    public var refusedCount: Int { refused.values.reduce(0, +) }
    /// Kept stations with usable coordinates.
    public var locatedCount: Int { stations.reduce(0) { $0 + ($1.location == nil ? 0 : 1) } }
    /// Stations a lookup can give: located, with at least one price.
    public var answerableCount: Int {
        stations.reduce(0) { $0 + ($1.location != nil && !$1.prices.isEmpty ? 1 : 0) }
    }

    /// How many times `warning` was raised.
    public func count(_ warning: FeedWarning) -> Int { warnings[warning.rawValue, default: 0] }
    /// How many records were refused for `reason`.
    public func count(_ reason: RecordRefusal) -> Int { refused[reason.rawValue, default: 0] }
    /// The examples kept for `warning`.
    public func examples(_ warning: FeedWarning) -> [String] { warningExamples[warning.rawValue] ?? [] }

    /// One line for a log or a reply, e.g.
    /// `asda: 790 kept (790 located), 0 refused; warnings: duplicate_site_id 1, price_inversion 3`.
    public var summary: String {
        var line = "\(retailer): \(acceptedCount) kept (\(locatedCount) located), \(refusedCount) refused"
        if !refused.isEmpty { line += " (\(Self.listing(refused)))" }
        line += warnings.isEmpty ? "; no warnings" : "; warnings: \(Self.listing(warnings))"
        return line
    }

    /// `kind count` pairs, most frequent first, then by name.
    private static func listing(_ counts: [String: Int]) -> String {
        counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
            .map { "\($0.key) \($0.value)" }
            .joined(separator: ", ")
    }
}
