import Messages

/// Why a whole feed was refused. A refused feed yields no stations at all: the caller stores nothing.
public enum FeedError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The bytes are not a JSON document; `hint` says what they look like, when that is telling
    /// (an HTML error page served with 200, a gzip body without its Content-Encoding).
    case notJSON(hint: String?)
    /// The document is JSON but its top level is not an object (`found` names what it is).
    case notAnObject(found: String)
    /// The top-level object has no `stations` key.
    case missingStations
    /// `stations` is present but is not a list (`found` names what it is).
    case stationsNotAList(found: String)
    /// The retailer name cannot be made into a slug `[a-z0-9-]{1,40}`.
    case badRetailerName(String)
    /// The document is larger than the parser accepts.
    case tooLarge(bytes: Int, limit: Int)
    /// The `stations` list holds more records than the parser accepts.
    case tooManyStations(count: Int, limit: Int)
    /// `last_updated` is not a date and time the parser reads (the text, or what the value is).
    case unreadableLastUpdated(String)
    /// `last_updated` more than a day after the fetch.
    case futureLastUpdated(String, hoursAhead: Int)
    /// `last_updated` before `FeedParser.earliestFeedTime`: a wrong date (year 1, the Unix epoch).
    case implausibleLastUpdated(String)

    /// A human sentence saying what was wrong.
    public var message: String {
        switch self {
        case .notJSON(let hint):
            "the feed is not valid JSON" + (hint.map { " (\($0))" } ?? "")
        case .notAnObject(let found):
            "the feed must be a JSON object with a stations list, found \(found)"
        case .missingStations:
            "the feed has no \"stations\" list"
        case .stationsNotAList(let found):
            "the feed's \"stations\" must be a list, found \(found)"
        case .badRetailerName(let name):
            "the retailer name \"\(TextClip.clip(name, to: 60))\" must give a slug of 1 to 40 characters a-z, 0-9, -"
        case .tooLarge(let bytes, let limit):
            "the feed is \(bytes) bytes, more than the \(limit) accepted"
        case .tooManyStations(let count, let limit):
            "the feed lists \(count) stations, more than the \(limit) accepted"
        case .futureLastUpdated(let value, let hours):
            "the feed's \"last_updated\" \(TextClip.clip(value, to: 60)) is \(hours) hours after it was fetched: a "
                + "feed cannot be from the future, so its prices' age is unknown (day and month swapped?): nothing was changed"
        case .implausibleLastUpdated(let value):
            "the feed's \"last_updated\" \(TextClip.clip(value, to: 60)) is before 2000: no UK price feed is that "
                + "old, so the date is wrong and its prices' age unknown: nothing was changed"
        case .unreadableLastUpdated(let value):
            "the feed's \"last_updated\" \(TextClip.clip(value, to: 60)) is not a time FuelBoard reads "
                + "(dd/mm/yyyy HH:MM:SS in UK time, or ISO 8601 with an offset): nothing was changed"
        }
    }

    public var description: String { message }

    /// The wire error for a reply: `too_large` for size limits, `bad_request` otherwise.
    public var serviceError: ServiceError {
        switch self {
        case .tooLarge, .tooManyStations: ServiceError(.tooLarge, message)
        default: ServiceError(.badRequest, message)
        }
    }
}
