import Foundation
import Messages
import ServiceKit

/// Replies the loaded server dropped: ZeroMQ gives a server no room to queue more for a client
/// that does not read them fast enough (an open loop offered far past what this generator reads),
/// and it counts them (`repliesNotDelivered` in its `sys.stats`). The generator never sees them:
/// without this they read as requests still in flight (QA: 358,272 "unanswered", 8,664 dropped).
enum ServerDrops {
    /// The server's count now, summed over the replicas of `endpoint`; nil when one cannot say
    /// (down, or a server without that figure, such as a bare echo).
    static func count(at endpoint: String, _ cli: CLIContext) -> Int? {
        var total = 0
        for replica in Endpoint.list(endpoint) {
            guard let client = try? cli.client(replica, timeout: .seconds(2), retries: 0),
                  let stats = try? client.call(.sysStats, EmptyBody(), as: StatsBody.self),
                  let dropped = stats.details["repliesNotDelivered"]?.number else { return nil }
            total += Int(dropped)
        }
        return total
    }

    /// The replies dropped between two counts (nil unless both were read; 0 after a restart).
    static func between(_ before: Int?, _ after: Int?) -> Int? {
        guard let before, let after else { return nil }
        return max(0, after - before)
    }
}
