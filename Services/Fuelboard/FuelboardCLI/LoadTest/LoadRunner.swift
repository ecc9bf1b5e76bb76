import Foundation
import Messages
import ServiceKit
import ZeroMQ

/// Drives one endpoint from one thread over one or more DEALER sockets (each its own
/// connection): closed loop (N in flight) or open loop (a fixed rate, latency measured from each
/// request's intended send time, so a stalled server cannot hide behind coordinated omission).
struct LoadRunner {
    struct Settings {
        var endpoint: String
        var concurrency = 1
        /// Sockets (connections) the requests are spread over, as that many clients would send them.
        var connections = 1
        /// Requests per second for an open loop; nil for a closed loop.
        var rate: Double?
        var duration: Duration = .seconds(10)
        var warmup: Duration = .seconds(1)
        var maxRequests: Int?
        var timeout: Duration = .seconds(5)
        /// Generator threads (`ParallelLoad` splits the settings above between them).
        var threads = 1
        /// The number of this runner's first request: its ids, and where in the plan it starts.
        var firstSequence = 0
        /// How long after the start an open loop sends its first request (threads take turns).
        var openLoopOffset: Duration = .zero
    }

    /// One second of the run, for the progress line and the latency-over-time chart.
    struct Second: Codable {
        var second: Int
        var requests: Int
        var errors: Int
        /// Requests found unanswered past the timeout in this second.
        var timeouts: Int
        var p50: Double
        var p99: Double
    }

    struct Result {
        var histogram = LatencyHistogram()
        var errorsByCode: [String: Int] = [:]
        var invalidReplies = 0
        /// Requests unanswered past the timeout, during the run or when it ended.
        var timeouts = 0
        /// Requests still unanswered when the run ended, sent within the timeout: in flight, not failed.
        var unanswered = 0
        var completed = 0
        /// Replies to requests sent during the warm-up (not in the figures above).
        var warmupCompleted = 0
        var elapsed: Duration = .zero
        /// The generator's own CPU time (all its threads) while it measured.
        var generatorCPU: Duration?
        var seconds: [Second] = []
    }

    let settings: Settings
    let plan: LoadPlan
    let context: Context

    /// Runs the load; `progress` gets each measured second as it ends, with its latencies.
    func run(progress: (Second, LatencyHistogram) -> Void) throws -> Result {
        let poller = Poller()
        var sockets: [Socket] = []
        for _ in 0..<settings.connections {
            let socket = try Socket(context, .dealer)
            socket.linger = .zero
            socket.sendHighWaterMark = 0
            socket.receiveHighWaterMark = 0
            try socket.connect(settings.endpoint)
            poller.add(socket)
            sockets.append(socket)
        }

        var result = Result()
        var inFlight: [Int: Sent] = [:]  // sequence -> intended send time and connection
        inFlight.reserveCapacity(settings.concurrency * 2)
        var sequence = settings.firstSequence
        let start = ContinuousClock.now
        let measureFrom = start + settings.warmup
        let end = measureFrom + settings.duration
        var secondHistogram = LatencyHistogram()
        var secondErrors = 0
        var secondTimeouts = 0
        var secondIndex = 0
        var nextSecond = measureFrom + .seconds(1)
        var nextExpiryCheck = start + .milliseconds(100)
        let interval: Duration? = settings.rate.map { .nanoseconds(Int64(1e9 / max($0, 0.001))) }
        var nextOpenLoopSend = start + settings.openLoopOffset
        var frame: [UInt8] = []
        let delimiter = [Data()]

        /// Sends the next request on connection `connection`. Its latency counts from `intended`
        /// (open loop: its place in the schedule), or from the moment it goes out when nil (closed loop).
        func send(intended: ContinuousClock.Instant?, on connection: Int) throws {
            plan.frame(sequence, into: &frame)
            inFlight[sequence] = Sent(at: intended ?? .now, connection: connection)
            try sockets[connection].send(delimiter, then: frame)
            sequence += 1
        }

        /// Takes one reply off connection `connection` if there is one; false when none is waiting.
        /// Its latency ends when it came off the socket, before the generator reads and checks it.
        /// A closed loop sends the next request on the same connection, as its client would.
        func receiveOne(from connection: Int) throws -> Bool {
            let scanned: (Int, Bool, String?)?
            var arrived = ContinuousClock.now
            do {
                scanned = try sockets[connection].receiveLastFrame(dontWait: true) { _, payload in
                    arrived = ContinuousClock.now
                    return Self.scan(payload.bindMemory(to: UInt8.self))
                }
            } catch {
                if error.isTimeout { return false }
                throw error
            }
            let received = arrived
            guard let (id, ok, code) = scanned, let intended = inFlight.removeValue(forKey: id)?.at else {
                result.invalidReplies += 1
                return true
            }
            if intended >= measureFrom {
                let latency = received - intended
                let micros = Double(latency.components.seconds) * 1e6 + Double(latency.components.attoseconds) / 1e12
                result.histogram.record(microseconds: micros)
                secondHistogram.record(microseconds: micros)
                result.completed += 1
                if !ok {
                    result.errorsByCode[code ?? "unreadable", default: 0] += 1
                    secondErrors += 1
                }
            } else {
                result.warmupCompleted += 1
            }
            if interval == nil && received < end { try send(intended: nil, on: connection) }
            return true
        }

        /// Reports the second that has just ended and starts the next.
        func closeSecond() {
            let second = Second(second: secondIndex + 1, requests: Int(secondHistogram.count), errors: secondErrors,
                                timeouts: secondTimeouts, p50: secondHistogram.quantile(0.5),
                                p99: secondHistogram.quantile(0.99))
            result.seconds.append(second)
            progress(second, secondHistogram)
            secondHistogram = LatencyHistogram()
            secondErrors = 0
            secondTimeouts = 0
            secondIndex += 1
            nextSecond += .seconds(1)
        }

        if interval == nil {
            for slot in 0..<settings.concurrency { try send(intended: nil, on: slot % sockets.count) }
        }
        var cpuAtMeasureStart: Duration?
        while true {
            let now = ContinuousClock.now
            if cpuAtMeasureStart == nil && now >= measureFrom { cpuAtMeasureStart = ProcessCPU.used() }
            if now >= end || (settings.maxRequests.map { result.completed >= $0 } ?? false) { break }
            if let interval {
                while nextOpenLoopSend <= now {
                    try send(intended: nextOpenLoopSend, on: sequence % sockets.count)
                    nextOpenLoopSend += interval
                }
            }
            let wait: Duration = interval == nil ? .milliseconds(100) : Self.sleepBeforeSend(nextOpenLoopSend - .now)
            let ready = try poller.poll(timeout: min(wait, .milliseconds(100)))
            for connection in ready {
                while try receiveOne(from: connection) {}
            }
            let checked = ContinuousClock.now
            if checked >= nextExpiryCheck {
                // Requests that never came back count as timeouts (and free their slot).
                nextExpiryCheck = checked + .milliseconds(100)
                // Those sent during the warm-up are left out of the figures, as their replies are.
                let expired = inFlight.filter { checked - $0.value.at > settings.timeout }
                for (id, sent) in expired {
                    inFlight[id] = nil
                    if sent.at >= measureFrom {
                        result.timeouts += 1
                        secondTimeouts += 1
                    }
                    if interval == nil { try send(intended: nil, on: sent.connection) }
                }
            }
            if checked >= nextSecond { closeSecond() }
        }
        // The last whole second ends with the run: the loop stops at `end` before it sees that.
        if min(ContinuousClock.now, end) >= nextSecond { closeSecond() }
        result.elapsed = min(ContinuousClock.now, end) - measureFrom
        // Requests still out when the run ends: the old ones timed out, the others were in flight.
        let settled = Self.settle(inFlight.values.map(\.at).filter { $0 >= measureFrom }, at: ContinuousClock.now,
                                  timeout: settings.timeout)
        result.timeouts += settled.timedOut
        result.unanswered = settled.inFlight
        if let cpuAtMeasureStart, let used = ProcessCPU.used() { result.generatorCPU = used - cpuAtMeasureStart }
        return result
    }

    /// A request out: when it was sent (or due to be) and the connection it went on.
    struct Sent {
        var at: ContinuousClock.Instant
        var connection: Int
    }

    /// Sorts the requests still unanswered `now` (by when each was sent, or due to be): older than
    /// `timeout` they timed out (the run's own check, every 100 ms, had not got to them yet);
    /// younger ones were simply still in flight when the run ended.
    static func settle<Times: Sequence<ContinuousClock.Instant>>(_ sentAt: Times, at now: ContinuousClock.Instant,
                                                                timeout: Duration) -> (timedOut: Int, inFlight: Int) {
        var timedOut = 0, inFlight = 0
        for sent in sentAt {
            if now - sent > timeout { timedOut += 1 } else { inFlight += 1 }
        }
        return (timedOut, inFlight)
    }

    /// How long the open loop may sleep in a poll when the next send is `gap` away: the whole
    /// milliseconds of it (a poll waits in whole milliseconds, rounded up, so a fraction would
    /// make the send late). Through the last fraction the loop polls without waiting.
    static func sleepBeforeSend(_ gap: Duration) -> Duration {
        guard gap >= .milliseconds(1) else { return .zero }
        return .milliseconds(Int64(gap / .milliseconds(1)))
    }

    /// Reads the id, `ok` and error code from a reply without decoding it (the generator must
    /// stay cheap); nil when the reply is not valid JSON or has no numeric id. Replies are encoded
    /// with sorted keys, so the top-level `"id"` is the last unescaped one.
    static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> (Int, Bool, String?)? {
        guard StrictJSON.check(bytes) == nil, let idStart = lastIndex(of: #""id":""#, in: bytes) else { return nil }
        var index = idStart, id = 0, digits = 0
        while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
            id = id * 10 + Int(bytes[index] - 48)
            index += 1
            digits += 1
        }
        guard digits > 0, digits < 18 else { return nil }
        let ok = lastIndex(of: #""ok":true"#, in: bytes) != nil
        var code: String?
        if !ok, let codeStart = lastIndex(of: #""code":""#, in: bytes) {
            var end = codeStart
            while end < bytes.count, bytes[end] != UInt8(ascii: "\"") { end += 1 }
            code = String(decoding: UnsafeBufferPointer(rebasing: bytes[codeStart..<end]), as: UTF8.self)
        }
        return (id, ok, code)
    }

    /// The index just past the last occurrence of `needle` in `bytes`.
    private static func lastIndex(of needle: StaticString, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let count = needle.utf8CodeUnitCount
        guard bytes.count >= count else { return nil }
        let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: count)
        var start = bytes.count - count
        while start >= 0 {
            var matches = true
            for offset in 0..<count where bytes[start + offset] != pattern[offset] {
                matches = false
                break
            }
            if matches { return start + count }
            start -= 1
        }
        return nil
    }
}
