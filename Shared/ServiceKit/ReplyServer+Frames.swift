import Foundation

// The two pieces of a request's handling that need none of the server's state.
extension ReplyServer {
    /// Splits `[routing ids..., "", payload]` (REQ) or `[routing id, payload]` (DEALER without
    /// delimiter). Returns nil for the payload when there is not exactly one payload frame.
    static func split(_ frames: [Data]) -> (route: [Data], payload: Data?) {
        guard frames.count >= 2 else { return (frames, nil) }
        if let delimiter = frames.indices.dropFirst().first(where: { frames[$0].isEmpty }) {
            let route = Array(frames[...delimiter])
            let rest = frames[(delimiter + 1)...]
            return (route, rest.count == 1 ? rest.first : nil)
        }
        return ([frames[0]], frames.count == 2 ? frames[1] : nil)
    }

    /// The monotonic clock in nanoseconds (one vDSO read: cheaper than `ContinuousClock` and its
    /// `Duration` arithmetic, on the path of every request).
    static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
