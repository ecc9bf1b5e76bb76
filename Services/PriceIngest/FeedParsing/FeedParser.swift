import Foundation
import Messages

/// Turns one retailer's CMA fuel-price document into normalised stations and a report.
///
/// The envelope must be a JSON object with a `stations` list, or the whole feed is refused with a
/// `FeedError`. Inside it, a record is refused only when it is not an object or has no usable `site_id`;
/// every other oddity is repaired or flagged (see `FeedWarning`) and the station kept. The parser prints
/// nothing and holds no state between calls.
public struct FeedParser: Sendable {
    /// The largest feed document taken (`IngestFeedRequest.maxFeedBytes`).
    public static let maxFeedBytes = IngestFeedRequest.maxFeedBytes
    /// Documents larger than this many bytes are refused (`FeedError.tooLarge`).
    public var maxBytes = FeedParser.maxFeedBytes
    /// Documents listing more stations than this are refused (`FeedError.tooManyStations`).
    public var maxStations = 100_000
    /// A `last_updated` older than this before the fetch raises `stale_feed` (48 hours).
    public var staleAfter: TimeInterval = 48 * 3_600
    /// A `last_updated` later than this after the fetch raises `future_last_updated` (1 hour).
    public var futureTolerance: TimeInterval = 3_600
    /// A `last_updated` later than this after the fetch refuses the feed (a day): no clock or time
    /// zone is that far out, so the date is wrong (day and month swapped, a typo such as 9999) and
    /// the prices' age unknown. Kept, it was said as theirs ("prices as of 31 Dec 9999") and beat
    /// every freshness filter.
    public var futureLimit: TimeInterval = 86_400

    /// A `last_updated` before this refuses the feed (1 January 2000, UTC): the date is wrong (year
    /// 1, the Unix epoch of a zero written as a time). Kept, it was stored with `stale_feed` and
    /// said as the prices' time.
    public static let earliestFeedTime = Date(timeIntervalSince1970: 946_684_800)

    public init() {}

    /// Parses `data` as the feed of `retailer`, fetched at `fetchedAt`.
    public func parse(_ data: Data, retailer: String, fetchedAt: Date) throws(FeedError) -> ParsedFeed {
        let slug = try RetailerName.slug(retailer)
        guard data.count <= maxBytes else { throw .tooLarge(bytes: data.count, limit: maxBytes) }
        let raw = try decode(data)

        var report = IssueLog()
        let updated = try feedTime(raw.lastUpdated, fetchedAt: fetchedAt, report: &report)
        var assembler = FeedAssembler(retailer: slug, updated: updated, report: report)
        for (index, record) in raw.records.enumerated() {
            assembler.add(record, index: index)
        }
        assembler.flagPriceOutliers()

        return ParsedFeed(retailer: slug, updated: updated, fetchedAt: fetchedAt,
                          stations: StationName.distinguished(assembler.stations),
                          refused: assembler.refusals.counts, warnings: assembler.report.counts,
                          refusedExamples: assembler.refusals.examples, warningExamples: assembler.report.examples)
    }

    private func decode(_ data: Data) throws(FeedError) -> RawFeed {
        let decoder = JSONDecoder()
        decoder.userInfo[RawFeed.maxStationsKey] = maxStations
        do {
            return try decoder.decode(RawFeed.self, from: data)
        } catch let error as FeedError {
            throw error
        } catch {
            throw .notJSON(hint: Self.looksLike(data))
        }
    }

    /// What bytes that are not JSON look like, when it tells an operator why: nil otherwise.
    static func looksLike(_ data: Data) -> String? {
        let start = data.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }
        guard let first = start.first else { return "it is empty" }
        if data.starts(with: [0x1F, 0x8B]) { return "it is gzip-compressed data, sent without its Content-Encoding" }
        if first == UInt8(ascii: "<") {
            let head = String(decoding: start.prefix(15), as: UTF8.self).lowercased()
            return head.hasPrefix("<!doctype html") || head.hasPrefix("<html") ? "it is an HTML page, such as a "
                + "server's error or login page" : "it starts with '<': XML or HTML, not JSON"
        }
        return nil
    }

    /// "50 hours", or "420 days" from three days on (hours alone were "10082 hours").
    static func span(_ seconds: TimeInterval) -> String {
        let hours = Int(seconds / 3_600)
        return hours < 72 ? "\(hours) hours" : "\(hours / 24) days"
    }

    /// The feed's time from `last_updated`, or the fetch time when there is none (warned) or the
    /// time is after the fetch; flags age. A `last_updated` it cannot read is refused: dated by its fetch time instead, prices of
    /// any age were said to be fresh ("as of midnight" for a 14-month-old feed whose date was
    /// written another way).
    private func feedTime(_ value: LenientValue?, fetchedAt: Date, report: inout IssueLog) throws(FeedError) -> Date {
        guard let value, value != .null else {
            report.note(FeedWarning.missingLastUpdated.rawValue, "no last_updated: the fetch time is the feed's time")
            return fetchedAt
        }
        guard case .string(let text) = value else { throw .unreadableLastUpdated(value.described) }
        guard let updated = FeedTimestamp.parse(text) else { throw .unreadableLastUpdated("\"\(text)\"") }
        guard updated >= Self.earliestFeedTime else { throw .implausibleLastUpdated(text) }
        let age = fetchedAt.timeIntervalSince(updated)
        if age > staleAfter {
            report.note(FeedWarning.staleFeed.rawValue,
                        "last_updated \(TextClip.clip(text)) is \(Self.span(age)) before the fetch")
        } else if -age > futureLimit {
            // Rounded up: "25 hours" refused beside a limit of 24, never "24 hours" (QA).
            throw .futureLastUpdated(text, hoursAhead: Int((-age / 3_600).rounded(.up)))
        } else if -age > futureTolerance {
            report.note(FeedWarning.futureLastUpdated.rawValue,
                        "last_updated \(TextClip.clip(text)) is \(Int(-age / 60)) minutes after the fetch: "
                            + "the fetch time is the feed's time")
        }
        // No price is from the future: a feed dated ahead of its fetch (a clock or time zone out)
        // is dated by the fetch. Kept, it was said as "prices as of" tomorrow's time, and a
        // correct copy dated before it was refused as older (QA).
        return min(updated, fetchedAt)
    }
}
