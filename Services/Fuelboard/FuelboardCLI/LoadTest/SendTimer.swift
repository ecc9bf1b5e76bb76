import CTimer
import ServiceKit
import Glibc

/// The open loop's clock for its next send: a Linux timerfd the poll waits on beside the sockets,
/// so the generator sleeps through the gaps between sends and polls without waiting only through
/// the last moments before each (`spinWindow`), so sends go on time. With `--spin` it polls
/// through the last millisecond, as it used to through every gap: sends are the most punctual,
/// and a core is kept busy from ~1,000 requests/s.
final class SendTimer {
    /// The descriptor to poll: readable once the armed time has come.
    let fileDescriptor: Int32
    /// How long before a send the loop stops sleeping and polls without waiting: a wake-up from
    /// the timer comes ~50–70 µs late on this project's VM, which would make each send as late.
    static let spinWindow: Duration = .microseconds(100)
    /// The window with `--spin`.
    static let wideSpinWindow: Duration = .milliseconds(1)

    init() throws(ConfigurationError) {
        let descriptor = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC) | Int32(TFD_NONBLOCK))
        guard descriptor >= 0 else {
            throw ConfigurationError("cannot make a timer for the open loop: \(String(cString: strerror(errno)))")
        }
        fileDescriptor = descriptor
    }

    deinit { close(fileDescriptor) }

    /// Fires once, `delay` from now (replacing any time armed before).
    func arm(after delay: Duration) {
        let (seconds, attoseconds) = max(delay, .nanoseconds(1)).components
        var setting = itimerspec(it_interval: timespec(tv_sec: 0, tv_nsec: 0),
                                 it_value: timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000)))
        _ = timerfd_settime(fileDescriptor, 0, &setting, nil)
    }

    /// Takes the expiry off the descriptor after it fired, so the next poll waits again.
    func acknowledge() {
        var expirations: UInt64 = 0
        _ = read(fileDescriptor, &expirations, MemoryLayout<UInt64>.size)
    }
}
