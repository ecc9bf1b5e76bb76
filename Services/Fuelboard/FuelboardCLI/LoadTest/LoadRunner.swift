import Foundation
import Messages
import ServiceKit
import Synchronization
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
        /// `--max-p99`: a p99 above it fails the run (a service level a script can hold a run to).
        var maxP99: Duration?
        /// `--no-check`: lookup replies' content is not checked (their envelope still is), for a
        /// server that answers something else (a bare echo, as the bench's baseline).
        var checksContent = true
        /// Generator threads (`ParallelLoad` splits the settings above between them).
        var threads = 1
        /// The number of this runner's first request: its ids, and where in the plan it starts.
        var firstSequence = 0
        /// How long after the start an open loop sends its first request (threads take turns).
        var openLoopOffset: Duration = .zero
        /// Open loop: poll through the last millisecond before each send instead of the last 100 µs
        /// (the most punctual sends, for a core kept busy).
        var spin = false
        /// Called about every second of the warm-up with the replies so far (every thread's) and
        /// the time left; one thread is given it.
        var warmupProgress: (@Sendable (Int, Duration) -> Void)?
    }

    /// One second of the run, for the progress line and the latency-over-time chart.
    struct Second: Codable {
        var second: Int
        var requests: Int
        var errors: Int
        /// Requests found unanswered past the timeout in this second.
        var timeouts: Int
        /// Latency percentiles of the second's replies in µs; nil (null in JSON) when none came.
        var p50: Double?
        var p99: Double?
        /// The last second's length when the run ended inside it (nil: a whole second).
        var seconds: Double? = nil
        /// No reply came in this second while requests had been waiting since before it (or some
        /// timed out in it); nil otherwise. Known as the second closes, for its progress line.
        var waited: Bool? = nil
        /// A second `waited` whose waiting request then got no reply in time: the server stopped
        /// answering (nil: it answered, if late). Known only when the run ends.
        var stalled: Bool? = nil
        /// Replies in this second that failed validation.
        var invalid = 0

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(second, forKey: .second)
            try container.encode(requests, forKey: .requests)
            try container.encode(errors, forKey: .errors)
            try container.encode(timeouts, forKey: .timeouts)
            try container.encode(invalid, forKey: .invalid)
            // Null, not absent, for a second without replies: there is no latency to draw.
            try container.encode(p50.map(LoadReport.micros), forKey: .p50)
            try container.encode(p99.map(LoadReport.micros), forKey: .p99)
            try container.encodeIfPresent(seconds, forKey: .seconds)
            try container.encodeIfPresent(waited, forKey: .waited)
            try container.encodeIfPresent(stalled, forKey: .stalled)
        }
    }

    struct Result {
        var histogram = LatencyHistogram()
        var errorsByCode: [String: Int] = [:]
        /// The first error reply's message for each error code (what the server said, in its words).
        var firstErrorMessages: [String: String] = [:]
        var invalidReplies = 0
        /// Requests unanswered past the timeout, during the run or when it ended.
        var timeouts = 0
        /// Requests still unanswered when the run ended, sent within the timeout: in flight, not failed.
        var unanswered = 0
        var completed = 0
        /// The lowest latency of a measured reply (µs): the distribution's 0th percentile, which
        /// the ages of requests unanswered at the end (in the histogram too) would otherwise set.
        var fastestReply: Double?
        /// Replies to requests sent during the warm-up (not in the figures above).
        var warmupCompleted = 0
        /// Replies that came after their request had been counted as timed out.
        var lateReplies = 0
        /// Second replies to one request (counted invalid too, but not as replies a second).
        var duplicateReplies = 0
        /// Assistant answers by `outcome` (or by `code` when there is none).
        var outcomes: [String: Int] = [:]
        /// Measured seconds in which the server stopped answering (see `Second.stalled`).
        var stalledSeconds = 0
        /// Whether Ctrl-C ended the run early.
        var interrupted = false
        var elapsed: Duration = .zero
        /// The generator's own CPU time (all its threads) while it measured.
        var generatorCPU: Duration?
        var seconds: [Second] = []
        /// Measured requests sent, and (open loop) those due by the end that never went out: the
        /// generator or its connection was behind the schedule.
        var sent = 0
        var unsent = 0
        /// Open loop: requests unanswered at the end (in flight or never sent) counted in the
        /// latencies at their age then, a lower bound of theirs.
        var unansweredInLatency = 0
        /// Measured requests that timed out, in the latencies at the timeout (a lower bound of
        /// theirs) or, for a reply that came too late, at its real latency.
        var timeoutsInLatency = 0
        /// Of those, requests lost when their connection dropped (the server closed it: it stopped,
        /// crashed or restarted), timed out then, at their age: no reply comes on a connection
        /// that is gone, and waiting out the timeout made a restart look like a long outage.
        var timeoutsOnDisconnect = 0
        /// Replies whose content was checked against their query (lookups), of `okReplies` (the
        /// measured replies with `"ok": true`, which have a content to check); why replies failed validation.
        var contentChecked = 0
        var okReplies = 0
        var invalidByReason: [String: Int] = [:]
        /// Replies to warm-up requests that came after the warm-up (in `warmupCompleted` too).
        var warmupRepliesAfter = 0
        /// Ctrl-C came during the warm-up, this long after the start: nothing was measured.
        var interruptedInWarmupAfter: Duration?
        /// The longest time in the measured run with no reply at all while a request waited.
        var longestGap: Duration = .zero
        /// Open loop: how late each measured request went out against its place in the schedule
        /// (the generator's own delay, inside the latencies measured from the intended time).
        var sendLag = LatencyHistogram()
        /// The request numbers sent, warm-up included (one range per generator thread).
        var sequencesSent: [Range<Int>] = []
    }

    /// Replies during the warm-up, over every thread, for its progress line.
    static let warmupReplies = Atomic<Int>(0)

    let settings: Settings
    let plan: LoadPlan
    let context: Context

    /// Set on Ctrl-C (or SIGTERM): every runner ends its run at its next turn, and the report
    /// gives what was measured until then.
    static let stopRequested = Atomic<Bool>(false)

    /// Runs the load; `progress` gets each measured second as it ends, with its latencies.
    func run(progress: (Second, LatencyHistogram) -> Void) throws -> Result {
        var session = try LoadSession(settings: settings, plan: plan, context: context)
        return try session.run(progress: progress)
    }

    /// A request out: when it was sent (or due to be) and the connection it went on.
    struct Sent {
        /// When it was due (an open loop's schedule) or sent (a closed loop): its latency counts
        /// from here.
        var at: ContinuousClock.Instant
        /// When it went out: its timeout counts from here, so a generator behind its schedule
        /// (its lag is in the latency and the BEHIND verdict) does not charge the server with
        /// timeouts for requests it has not had for long.
        var sentAt: ContinuousClock.Instant
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

    /// How long the open loop sleeps on its timer when the next send is `gap` away: all of it but
    /// the spin window (a millisecond with `spin`), or nil when the send is within the window (the
    /// loop polls without waiting).
    static func timerDelay(before gap: Duration, spin: Bool = false) -> Duration? {
        let window = spin ? SendTimer.wideSpinWindow : SendTimer.spinWindow
        return gap > window ? gap - window : nil
    }
}
