import Foundation
import ServiceKit

/// Everything price-ingest needs to start, with defaults.
public struct PriceIngestConfiguration: Sendable {
    /// Where requests (`ingest.feed`, `ingest.snapshot`, `sys.*`) are served.
    public var endpoint: String
    /// Where price updates are published.
    public var publishEndpoint: String
    /// Directory holding `price-ingest.sqlite`.
    public var dataDirectory: URL
    /// Feeds polled on a timer (from `--feeds FILE`).
    public var feeds: FeedList = FeedList(entries: [])
    /// How often the feeds list is polled.
    public var pollInterval: Duration = .seconds(30 * 60)
    /// The shortest `--poll-interval`: retailers publish a few times a day, and a poll of every feed
    /// back to back would hammer their servers.
    public static let shortestPollInterval: Duration = .seconds(10)
    /// How the feeds are fetched (timeouts, retries, User-Agent).
    public var fetcher = FeedFetcher()
    /// Largest inline `ingest.feed` request accepted.
    public var maxRequestBytes: Int = 64 << 20
    /// Feeds waiting to be parsed hold at most this many bytes before a client's next one is refused
    /// (`PriceIngestService.ingest`): 40 feeds of 30 MB sent at once took price-ingest to 6.6 GB (QA).
    /// Four of the largest feeds; the scheme's 13 real ones together are about 30 MB, and `fuelboard
    /// ingest` sends one at a time.
    public var maxWaitingFeedBytes = 128 << 20
    /// How often the publisher repeats its version so idle replicas notice gaps.
    public var heartbeatInterval: Duration = .seconds(1)

    public init(endpoint: String, publishEndpoint: String, dataDirectory: URL) {
        self.endpoint = endpoint
        self.publishEndpoint = publishEndpoint
        self.dataDirectory = dataDirectory
    }
}
