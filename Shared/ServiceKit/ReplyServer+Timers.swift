import Foundation
import Messages
import ZeroMQ

/// Timers on the loop thread: a service's periodic work and its delayed actions.
extension ReplyServer {
    /// A timer waiting on the loop thread.
    struct Timer {
        var due: ContinuousClock.Instant
        let interval: Duration?
        let action: () -> Void
    }

    /// Runs `action` every `interval` on the loop thread (first run after one interval).
    public func every(_ interval: Duration, _ action: @escaping () -> Void) {
        timers.append(Timer(due: .now + interval, interval: interval, action: action))
    }

    /// Runs `action` once after `delay` on the loop thread.
    public func after(_ delay: Duration, _ action: @escaping () -> Void) {
        timers.append(Timer(due: .now + delay, interval: nil, action: action))
    }

    func nextTimerDelay() -> Duration? {
        guard let due = timers.lazy.map(\.due).min() else { return nil }
        return max(.zero, due - .now)
    }

    func fireDueTimers() {
        guard !timers.isEmpty else { return }
        let now = ContinuousClock.now
        var index = 0
        while index < timers.count {
            if timers[index].due <= now {
                let timer = timers[index]
                if let interval = timer.interval {
                    timers[index].due = now + interval
                    index += 1
                } else {
                    timers.remove(at: index)
                }
                timer.action()
            } else {
                index += 1
            }
        }
    }
}
