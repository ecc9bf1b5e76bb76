import Foundation
import LocationCache
import Synchronization

/// Collects every entry the service's `EventLog` writes.
final class LogCapture: Sendable {
    private let captured = Mutex<[LogEntry]>([])

    var entries: [LogEntry] { captured.withLock { $0 } }

    /// An event log that writes here, with a fixed pseudonym key.
    var log: EventLog {
        EventLog(pseudonym: UserPseudonym(key: (11, 42))) { [self] entry in
            captured.withLock { $0.append(entry) }
        }
    }
}
