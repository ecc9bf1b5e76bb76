import Foundation
import Synchronization

/// A clock a test advances by hand, so expiry is tested without waiting.
final class TestClock: Sendable {
    /// 2025-10-09T12:00:00Z: whole seconds, so times survive the wire's ISO-8601 format exactly.
    static let start = Date(timeIntervalSince1970: 1_760_011_200)

    private let current: Mutex<Date>

    init(_ start: Date = TestClock.start) {
        current = Mutex(start)
    }

    var now: Date { current.withLock { $0 } }

    func advance(by seconds: TimeInterval) {
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// The clock as the service takes it.
    var closure: @Sendable () -> Date { { [self] in self.now } }
}
