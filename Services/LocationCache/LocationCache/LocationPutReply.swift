import Foundation

/// `location.put` reply: `{"stored": true, "at": ..., "expiresAt": ...}`.
///
/// `stored` is false when a newer location was already held for the user (a late or repeated
/// put never overwrites a fresher position); `at` and `expiresAt` then describe the one kept.
public struct LocationPutReply: Codable, Sendable, Equatable {
    public var stored: Bool
    public var at: Date
    public var expiresAt: Date

    public init(stored: Bool, at: Date, expiresAt: Date) {
        self.stored = stored
        self.at = at
        self.expiresAt = expiresAt
    }
}
