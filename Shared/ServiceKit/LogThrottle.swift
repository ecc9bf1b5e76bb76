import Dispatch

/// Caps how many lines of one kind a service writes per second, so a client that sends bad
/// requests in a loop (or a load test against a broken backend) cannot fill the disk with one
/// line per request. Lines past the cap are counted, and the count is written once: with the
/// next line of that kind in a later second, or by `flush` once the flood has stopped.
/// `sys.stats` still counts every request.
public struct LogThrottle: Sendable {
    /// Lines of this kind written per second, at most.
    public let perSecond: Int
    /// The event of the line that counts lines left out (`request failures not logged`).
    public let leftOutEvent: String
    private var windowStart: UInt64?
    private var written = 0
    private var suppressed = 0

    public init(perSecond: Int = 20, leftOutEvent: String = "lines not logged") {
        self.perSecond = max(1, perSecond)
        self.leftOutEvent = leftOutEvent
    }

    /// Whether to write a line now; when lines were left out before it, first writes the line
    /// that counts them (`<leftOutEvent> count=N`) to `logger`.
    public mutating func admit(logging logger: Logger, now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> Bool {
        let (write, leftOut) = admit(now: now)
        if leftOut > 0 {
            logger.info(leftOutEvent, metadata: ["count": "\(leftOut)", "why": "more than \(perSecond) a second"])
        }
        return write
    }

    /// Whether lines were left out that nobody has been told about yet.
    public var hasLeftOut: Bool { suppressed > 0 }

    /// Writes the count of the lines left out once their second is over (when the lines stopped
    /// coming, no later line would carry it); true while a count is still waiting for its second
    /// to end. Call it about once a second while `hasLeftOut`.
    @discardableResult
    public mutating func flush(logging logger: Logger, now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> Bool {
        guard suppressed > 0 else { return false }
        if let start = windowStart, now &- start < 1_000_000_000 { return true }
        logger.info(leftOutEvent, metadata: ["count": "\(suppressed)", "why": "more than \(perSecond) a second"])
        suppressed = 0
        windowStart = nil
        written = 0
        return false
    }

    /// Whether to write a line now (`now`: a monotonic clock in nanoseconds), and how many lines
    /// were left out before it that nobody has been told about yet (0 when none).
    public mutating func admit(now: UInt64) -> (write: Bool, leftOut: Int) {
        if let start = windowStart, now &- start < 1_000_000_000 {
            guard written < perSecond else {
                suppressed += 1
                return (false, 0)
            }
            written += 1
            return (true, 0)
        }
        let leftOut = suppressed
        windowStart = now
        written = 1
        suppressed = 0
        return (true, leftOut)
    }
}
