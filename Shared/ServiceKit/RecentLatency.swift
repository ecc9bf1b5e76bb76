/// Handling latency over the last one to two minutes, beside the since-start figures: a service
/// up for a week has since-start quantiles that a bad last minute barely moves.
///
/// Two windows of a minute each, the current one and the one before; a window is replaced lazily
/// when a request is recorded after it ended (no timer: a service without timers waits in its
/// receive, and a timer would make it poll).
public struct RecentLatency: Sendable {
    public static let windowNanoseconds: UInt64 = 60_000_000_000
    private var current = LatencyHistogram()
    private var previous = LatencyHistogram()
    /// When `current` began (monotonic nanoseconds); nil before the first request.
    private var currentStart: UInt64?

    public init() {}

    /// Records one value at `now` (monotonic nanoseconds).
    public mutating func record(microseconds: Double, now: UInt64) {
        advance(to: now)
        current.record(microseconds: microseconds)
    }

    /// The last one to two minutes as of `now`, and how many seconds they cover.
    public func snapshot(now: UInt64) -> (histogram: LatencyHistogram, seconds: Double) {
        var copy = self
        copy.advance(to: now)
        guard let start = copy.currentStart else { return (LatencyHistogram(), 0) }
        var histogram = copy.current
        histogram.merge(copy.previous)
        let covered = now &- start + (copy.previous.count > 0 ? Self.windowNanoseconds : 0)
        return (histogram, Double(covered) / 1e9)
    }

    /// Starts a new window when the current one has ended; one that ended a whole window ago
    /// or more leaves nothing behind it.
    private mutating func advance(to now: UInt64) {
        guard let start = currentStart else {
            currentStart = now
            return
        }
        let elapsed = now &- start
        guard elapsed >= Self.windowNanoseconds, elapsed < UInt64.max / 2 else { return }
        if elapsed >= 2 * Self.windowNanoseconds {
            previous.reset()
            currentStart = now
        } else {
            swap(&previous, &current)
            currentStart = start + Self.windowNanoseconds
        }
        current.reset()
    }
}
