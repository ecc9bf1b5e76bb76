import Foundation
import ServiceKit

/// Everything location-cache needs to start, with defaults.
public struct LocationCacheConfiguration: Sendable {
    /// Where requests are served.
    public var endpoint: String
    /// Directory holding `location-cache.sqlite`.
    public var dataDirectory: URL
    /// How long a location lives after the time it was observed.
    public var ttl: Duration = .seconds(24 * 3600)
    /// How often expired locations are deleted from disk.
    public var purgeInterval: Duration = .seconds(60)
    /// Largest request accepted (every body here is a few hundred bytes).
    public var maxRequestBytes = ReplyServer.smallRequestBytes
    /// The service's clock (tests pass one they can advance).
    public var now: @Sendable () -> Date = { Date() }

    public init(endpoint: String, dataDirectory: URL) {
        self.endpoint = endpoint
        self.dataDirectory = dataDirectory
    }
}
