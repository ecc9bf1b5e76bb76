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

    /// The request id a reply envelope carries, for a log line: the text after its last `,"id":`
    /// (the envelope's id follows the body), unquoted, at most 64 printable characters; "-" when
    /// there is none.
    static func envelopeID(of reply: [UInt8]) -> String {
        let marker = Array(#","id":"#.utf8)
        guard reply.count > marker.count,
              let start = (0 ... reply.count - marker.count).reversed().first(where: {
                  reply[$0 ..< $0 + marker.count].elementsEqual(marker)
              }) else { return "-" }
        var id = reply[(start + marker.count)...].prefix { $0 != UInt8(ascii: ",") && $0 != UInt8(ascii: "}") }
        if id.first == UInt8(ascii: "\"") { id = id.dropFirst() }
        if id.last == UInt8(ascii: "\"") { id = id.dropLast() }
        guard !id.isEmpty, id.allSatisfy({ (0x20 ... 0x7e).contains($0) }), id.elementsEqual("null".utf8) == false
        else { return "-" }
        return String(decoding: id.prefix(64), as: UTF8.self)
    }

    /// The monotonic clock in nanoseconds (one vDSO read: cheaper than `ContinuousClock` and its
    /// `Duration` arithmetic, on the path of every request).
    static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
