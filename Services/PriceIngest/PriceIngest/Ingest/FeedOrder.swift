import FeedParsing
import Foundation
import Messages

/// Keeps a poll from taking a retailer's prices back in time: a polled copy whose `last_updated` is
/// older than the stored feed's (a late or cached copy) changes nothing. An ingest.feed request
/// replaces the stations as asked, with a warning naming both times. The same time is not older.
///
/// Only a feed's own times are compared. A feed without `last_updated` is dated by its fetch time
/// (the parser then sets `updated` to `fetchedAt` exactly), which is not one. A time further ahead of its fetch than
/// `futureTolerance` is not believed either: such a time neither refuses a feed nor is refused by
/// one (an odd date would otherwise block a retailer's updates until that date).
struct FeedOrder {
    /// How far ahead of its fetch a feed's time may be and still count (the parser's `futureTolerance`).
    var futureTolerance: TimeInterval

    /// The `warningsByKind` key of an ingest that replaced a newer stored feed.
    static let olderKind = "older_feed"

    /// The stored feed's time when `parsed` is older than it, else nil (no stored feed, the same or a
    /// later time, or a time that cannot be ordered).
    func storedTimeNewer(than parsed: ParsedFeed, stored: FeedRecord?) -> Date? {
        guard let storedTime = stored?.updated, let storedFetch = stored?.fetchedAt,
              isFeedOwn(storedTime, fetchedAt: storedFetch), isFeedOwn(parsed.updated, fetchedAt: parsed.fetchedAt),
              parsed.updated < storedTime else { return nil }
        return storedTime
    }

    /// Whether `updated` is the feed's own time, fit to order feeds by: not the fetch time standing
    /// in for a missing one, nor too far ahead of the fetch.
    func isFeedOwn(_ updated: Date, fetchedAt: Date) -> Bool {
        updated != fetchedAt && updated.timeIntervalSince(fetchedAt) <= futureTolerance
    }

    /// The `conflict` reply for a feed dated `feedTime` sent while the stored one is dated `storedTime`.
    static func refusal(retailer: String, feedTime: Date, storedTime: Date) -> ServiceError {
        ServiceError(.conflict, "\(retailer) feed dated \(FeedTimestamp.text(feedTime)) is older than the stored one "
            + "dated \(FeedTimestamp.text(storedTime)) (UK time): nothing was changed "
            + "(send it with ingest.feed to restore an older feed on purpose)")
    }

    /// The reply's warning for an ingest of a feed older than the stored one.
    static func olderWarning(feedTime: Date, storedTime: Date) -> String {
        "\(olderKind): this feed dated \(FeedTimestamp.text(feedTime)) replaced a newer one dated "
            + "\(FeedTimestamp.text(storedTime)) (UK time)"
    }
}
