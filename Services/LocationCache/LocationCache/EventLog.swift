import Foundation
import ServiceKit

/// A short keyed pseudonym of a user id for log lines (`u-1a2b3c4d`): stable within one process,
/// unlinkable to the id without the process's random key, and different after every restart.
public struct UserPseudonym: Sendable {
    private let key: (UInt64, UInt64)

    /// A pseudonym function with a fresh random key.
    public init() {
        key = (UInt64.random(in: .min ... .max), UInt64.random(in: .min ... .max))
    }

    /// A fixed key, for tests.
    public init(key: (UInt64, UInt64)) {
        self.key = key
    }

    public func callAsFunction(_ user: String) -> String {
        var hasher = Hasher()
        hasher.combine(key.0)
        hasher.combine(key.1)
        hasher.combine(user)
        let value = UInt32(truncatingIfNeeded: hasher.finalize())
        let hex = String(value, radix: 16)
        return "u-" + String(repeating: "0", count: 8 - hex.count) + hex
    }
}

/// One log line as location-cache builds it, before it is written.
public struct LogEntry: Sendable, Equatable {
    public var level: Logger.Level
    public var message: String
    public var metadata: [String: String]

    /// The message and every `key=value`, as one string (what a test searches).
    public var rendered: String {
        ([message] + metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }).joined(separator: " ")
    }
}

/// The only way location-cache writes log lines. Its shape keeps positions out by construction:
/// the message is a `StaticString` (no interpolation), the user appears only as a pseudonym, and
/// other fields are counts or storage errors (which carry SQL text, never bound values).
public struct EventLog: Sendable {
    public let pseudonym: UserPseudonym
    private let write: @Sendable (LogEntry) -> Void
    /// Entries below this level are not even built (a pseudonym costs a keyed hash).
    private let minimumLevel: Logger.Level

    /// Writes through `logger` (stderr, one line per event).
    public init(logger: Logger, pseudonym: UserPseudonym = UserPseudonym()) {
        self.pseudonym = pseudonym
        minimumLevel = logger.level
        write = { entry in logger.log(entry.level, entry.message, metadata: entry.metadata) }
    }

    /// Hands every entry to `write` (tests capture them).
    public init(pseudonym: UserPseudonym = UserPseudonym(), write: @escaping @Sendable (LogEntry) -> Void) {
        self.pseudonym = pseudonym
        minimumLevel = .trace
        self.write = write
    }

    /// Writes one entry. The request id is only read when the entry is written (most puts log at
    /// `debug`, below the usual level, and should not pay for building it).
    public func record(_ level: Logger.Level, _ message: StaticString, requestID: @autoclosure () -> String? = nil,
                       user: String? = nil, counts: [String: Int] = [:], failure: (any Error)? = nil) {
        guard level >= minimumLevel else { return }
        write(entry(level, message, requestID: requestID(), user: user, counts: counts, failure: failure))
    }

    /// Builds the entry `record` writes.
    public func entry(_ level: Logger.Level, _ message: StaticString, requestID: String? = nil,
                      user: String? = nil, counts: [String: Int] = [:], failure: (any Error)? = nil) -> LogEntry {
        var metadata: [String: String] = [:]
        if let requestID { metadata["svc.request.id"] = requestID }
        if let user { metadata["user"] = pseudonym(user) }
        for (key, count) in counts { metadata[key] = String(count) }
        if let failure { metadata["error"] = String("\(failure)".prefix(300)) }
        return LogEntry(level: level, message: "\(message)", metadata: metadata)
    }
}
