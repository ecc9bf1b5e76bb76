import Foundation

// The two pieces of a request's handling that need none of the server's state.
extension ReplyServer {
    /// Splits `[routing ids..., "", payload]` (REQ) or `[routing id, payload]` (DEALER without
    /// delimiter) into `route` (emptied first, its storage kept) and the payload, which is nil when
    /// there is not exactly one payload frame.
    static func split(_ frames: [Data], route: inout [Data]) -> Data? {
        route.removeAll(keepingCapacity: true)
        guard frames.count >= 2 else {
            route.append(contentsOf: frames)
            return nil
        }
        if let delimiter = frames.indices.dropFirst().first(where: { frames[$0].isEmpty }) {
            route.append(contentsOf: frames[...delimiter])
            return frames.count == delimiter + 2 ? frames[delimiter + 1] : nil
        }
        route.append(frames[0])
        return frames.count == 2 ? frames[1] : nil
    }

    /// The monotonic clock in nanoseconds (one vDSO read: cheaper than `ContinuousClock` and its
    /// `Duration` arithmetic, on the path of every request).
    static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
