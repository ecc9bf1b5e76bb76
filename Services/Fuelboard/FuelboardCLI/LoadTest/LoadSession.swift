import Foundation
import Messages
import ServiceKit
import ZeroMQ

/// One run of a `LoadRunner`: its sockets, the requests in flight and what it has measured, on
/// one thread. Closed loop: every reply (or timeout) sends the next request on the same
/// connection. Open loop: requests go at their scheduled times, whatever has come back.
struct LoadSession {
    private let settings: LoadRunner.Settings
    private let plan: LoadPlan
    private let poller = Poller()
    private var sockets: [Socket] = []
    private let timer: SendTimer?
    private let timerIndex: Int?
    /// Whether replies are assistant answers, whose `code` and `outcome` are read.
    private let readsAnswers: Bool

    private var result = LoadRunner.Result()
    private var inFlight: [Int: LoadRunner.Sent] = [:]
    private var sequence: Int
    /// Seconds with no reply while requests waited: each with a request that waited through it
    /// (nil: one timed out in it). Confirmed stalls are those whose request never got a reply in
    /// time; a slow server that answers later is not stalled.
    private var silentSeconds: [(index: Int, waiting: Int?)] = []
    /// The waiting requests of silent seconds, until their replies come in time.
    private var watched = Set<Int>()
    /// Requests sent for measuring (at or after `measureFrom`), against `--requests`.
    private var measuredSent = 0
    /// Measured requests whose reply failed validation (settled, against `--requests`).
    private var measuredInvalid = 0
    private let start: ContinuousClock.Instant
    private let measureFrom: ContinuousClock.Instant
    private var end: ContinuousClock.Instant
    private let interval: Duration?
    private var nextOpenLoopSend: ContinuousClock.Instant
    private var armedFor: ContinuousClock.Instant?
    private var nextExpiryCheck: ContinuousClock.Instant

    private var second = SecondTally()
    private var nextSecond: ContinuousClock.Instant
    private var nextWarmupLine: ContinuousClock.Instant
    /// Whether lookup replies' content is checked (see `checksContent`), and the replies seen this second.
    private let readsContent: Bool
    private let nearest: Bool
    private var repliesThisSecond = 0
    /// When the last reply of any kind came, and since when some request has been waiting
    /// without a break (for the longest gap without a reply).
    private var lastReply: ContinuousClock.Instant
    private var busySince: ContinuousClock.Instant

    private var frame: [UInt8] = []
    private var members: [StrictJSON.Member] = []
    private let delimiter = [Data()]

    /// What one second has measured so far.
    private struct SecondTally {
        var histogram = LatencyHistogram()
        var errors = 0
        var timeouts = 0
        var invalid = 0
        var index = 0
        /// Any reply came (a warm-up request's, a late or an invalid one too): the server answered.
        var anyReply = false
    }

    /// Every reply's content is checked up to this many a second on a thread, then every
    /// `sampleEvery`th reply: a full check costs the generator CPU that a benchmark at 150,000
    /// replies a second would take from the server it measures.
    static let checkAllUpTo = 1000
    static let sampleEvery = 64

    init(settings: LoadRunner.Settings, plan: LoadPlan, context: Context) throws {
        self.settings = settings
        self.plan = plan
        readsAnswers = plan.target == .router
        readsContent = plan.target == .lookup && !plan.queries.isEmpty
        nearest = plan.typeName == MessageType.lookupNearest.rawValue
        for _ in 0..<settings.connections {
            let socket = try Socket(context, .dealer)
            socket.linger = .zero
            socket.sendHighWaterMark = 0
            socket.receiveHighWaterMark = 0
            try socket.connect(settings.endpoint)
            poller.add(socket)
            sockets.append(socket)
        }
        let interval: Duration? = settings.rate.map { .nanoseconds(Int64(1e9 / max($0, 0.001))) }
        self.interval = interval
        // The open loop sleeps until its next send on a timer the poll waits on with the sockets.
        let timer = interval == nil ? nil : try SendTimer()
        self.timer = timer
        timerIndex = timer.map { [poller] in poller.add(fileDescriptor: $0.fileDescriptor) }
        inFlight.reserveCapacity(settings.concurrency * 2)
        sequence = settings.firstSequence
        start = .now
        measureFrom = start + settings.warmup
        end = measureFrom + settings.duration
        nextOpenLoopSend = start + settings.openLoopOffset
        nextExpiryCheck = start + .milliseconds(100)
        nextSecond = measureFrom + .seconds(1)
        nextWarmupLine = start + .seconds(1)
        lastReply = start
        busySince = start
    }

    mutating func run(progress: (LoadRunner.Second, LatencyHistogram) -> Void) throws -> LoadRunner.Result {
        if interval == nil {
            for slot in 0..<settings.concurrency where mayStartAnother { try send(intended: nil, on: slot % sockets.count) }
        }
        var cpuAtMeasureStart: Duration?
        while true {
            let now = ContinuousClock.now
            if cpuAtMeasureStart == nil && now >= measureFrom {
                cpuAtMeasureStart = ProcessCPU.used()
                repliesThisSecond = 0
            }
            if LoadRunner.stopRequested.load(ordering: .relaxed) {
                result.interrupted = true
                if now < measureFrom && result.interruptedInWarmupAfter == nil {
                    result.interruptedInWarmupAfter = now - start
                }
                end = min(end, now)
            }
            if now >= end || hasEnoughReplies { break }
            if let interval {
                while nextOpenLoopSend <= now && mayStartAnother {
                    try send(intended: nextOpenLoopSend, on: sequence % sockets.count)
                    nextOpenLoopSend += interval
                }
            }
            let ready = try poller.poll(timeout: waitBeforeNextTurn())
            for index in ready {
                if index == timerIndex {
                    timer?.acknowledge()
                    armedFor = nil
                } else {
                    // Bounded, so one busy connection cannot keep the loop from the others and its checks.
                    for _ in 0..<1000 {
                        guard try receiveOne(from: index) else { break }
                    }
                }
            }
            let checked = ContinuousClock.now
            if checked >= nextExpiryCheck { try expireOld(at: checked) }
            if checked >= nextSecond { closeSecond(at: nextSecond, progress) }
            if checked >= nextWarmupLine && checked < measureFrom {
                settings.warmupProgress?(LoadRunner.warmupReplies.load(ordering: .relaxed), measureFrom - checked)
                nextWarmupLine += .seconds(1)
                repliesThisSecond = 0
            }
        }
        finish(progress)
        result.sequencesSent = [settings.firstSequence..<sequence]
        if let cpuAtMeasureStart, let used = ProcessCPU.used() { result.generatorCPU = used - cpuAtMeasureStart }
        return result
    }

    // MARK: - Sending and receiving

    /// Whether another measured request may go out (`--requests` not reached yet).
    private var mayStartAnother: Bool {
        guard let limit = settings.maxRequests else { return true }
        return measuredSent < limit || ContinuousClock.now < measureFrom
    }

    /// With `--requests`: every measured request has been answered or has timed out.
    private var hasEnoughReplies: Bool {
        guard let limit = settings.maxRequests else { return false }
        return result.completed + result.timeouts + measuredInvalid >= limit
    }

    /// Sends the next request on connection `connection`. Its latency counts from `intended`
    /// (open loop: its place in the schedule), or from the moment it goes out when nil (closed loop).
    private mutating func send(intended: ContinuousClock.Instant?, on connection: Int) throws {
        plan.frame(sequence, into: &frame)
        let at = intended ?? .now
        if inFlight.isEmpty { busySince = at }
        inFlight[sequence] = LoadRunner.Sent(at: at, connection: connection)
        if at >= measureFrom {
            measuredSent += 1
            result.sent += 1
            if intended != nil { result.sendLag.record(microseconds: Self.micros(max(.now - at, .zero))) }
        }
        try sockets[connection].send(delimiter, then: frame)
        sequence += 1
    }

    /// Takes one reply off connection `connection` if there is one; false when none is waiting.
    /// Its latency ends when it came off the socket, before the generator reads and checks it.
    /// A closed loop sends the next request on the same connection, as its client would, after
    /// any reply to one of its requests: valid, invalid or late.
    private mutating func receiveOne(from connection: Int) throws -> Bool {
        var scan: ReplyScan?
        var arrived = ContinuousClock.now
        var looseID: Int?
        var checkedContent = false
        var problem: LookupCheck.Problem?
        do {
            let checking = readsContent
                && (repliesThisSecond < Self.checkAllUpTo || repliesThisSecond % Self.sampleEvery == 0)
            scan = try sockets[connection].receiveLastFrame(dontWait: true) { [plan, nearest] _, payload in
                arrived = ContinuousClock.now
                let bytes = payload.bindMemory(to: UInt8.self)
                guard let scan = ReplyScan.read(bytes, members: &members, answers: readsAnswers, list: checking) else {
                    looseID = ReplyScan.looseID(bytes)
                    return nil
                }
                if checking, scan.ok, let query = plan.query(scan.id) {
                    checkedContent = true
                    problem = LookupCheck.problem(in: bytes, members: members, query: query, nearest: nearest)
                }
                return scan
            }
        } catch {
            if error.isTimeout { return false }
            throw error
        }
        repliesThisSecond += 1
        second.anyReply = true
        // Any reply, late or invalid too, shows the server alive: the gap ends here.
        let quietSince = max(lastReply, busySince, measureFrom)
        if !inFlight.isEmpty && arrived > quietSince {
            result.longestGap = max(result.longestGap, arrived - quietSince)
        }
        lastReply = arrived
        var id = scan?.id ?? looseID
        var unmatched: String?
        if id.map({ inFlight[$0] == nil }) ?? true {
            // Ids go up from `firstSequence`: one sent but no longer in flight timed out before.
            if let known = id, known >= settings.firstSequence && known < sequence {
                result.lateReplies += 1
                return true
            }
            // No id of a request waiting: the server answered one of this connection's requests
            // without saying which. Taken as the oldest's answer (an invalid one), so it is counted
            // once and frees its place, instead of also timing out and being blamed on the server.
            unmatched = id == nil ? Self.unreadable : Self.notOurs
            id = oldestWaiting(on: connection)
        }
        guard let id, let sent = inFlight.removeValue(forKey: id) else {
            if arrived >= measureFrom { invalid(unmatched ?? Self.notOurs) }  // nothing of ours was waiting
            return true
        }
        if !watched.isEmpty { watched.remove(id) }  // answered: the silence it waited through was no stall
        if checkedContent && sent.at >= measureFrom { result.contentChecked += 1 }
        if unmatched != nil || scan == nil || problem != nil {
            // Replies to warm-up requests are left out, the invalid as the valid.
            if sent.at >= measureFrom {
                invalid(unmatched ?? problem?.rawValue ?? Self.unreadable)
                measuredInvalid += 1
            }
        } else if let scan, arrived - sent.at <= settings.timeout {
            if sent.at >= measureFrom {
                record(scan, latency: arrived - sent.at)
            } else {
                result.warmupCompleted += 1
                if arrived >= measureFrom {
                    result.warmupRepliesAfter += 1
                } else {
                    LoadRunner.warmupReplies.add(1, ordering: .relaxed)
                }
            }
        } else if sent.at >= measureFrom {
            // Later than --timeout, though before the 100 ms check found it: a timeout, not a success.
            result.timeouts += 1
            second.timeouts += 1
            result.lateReplies += 1
            result.histogram.record(microseconds: Self.micros(arrived - sent.at))
            result.timeoutsInLatency += 1
        }
        if interval == nil && arrived < end && mayStartAnother { try send(intended: nil, on: connection) }
        return true
    }

    /// The request waiting longest on `connection` (ids grow with time), if any.
    private func oldestWaiting(on connection: Int) -> Int? {
        var oldest: Int?
        for (id, sent) in inFlight where sent.connection == connection && id < (oldest ?? .max) { oldest = id }
        return oldest
    }

    /// Why a reply failed validation, besides the content problems of `LookupCheck`.
    static let unreadable = "not a JSON reply envelope with an id"
    static let notOurs = "an id the generator never sent"

    /// Counts a reply that failed validation, and why.
    private mutating func invalid(_ reason: String) {
        result.invalidReplies += 1
        result.invalidByReason[reason, default: 0] += 1
        second.invalid += 1
    }

    /// Counts a measured reply: its latency, and an error when it is one (an assistant's answer
    /// that failed counts as `failure:<outcome>`).
    private mutating func record(_ scan: ReplyScan, latency: Duration) {
        let micros = Self.micros(latency)
        result.histogram.record(microseconds: micros)
        second.histogram.record(microseconds: micros)
        result.completed += 1
        var error: String?
        if !scan.ok {
            error = scan.errorCode ?? "unreadable"
        } else if readsAnswers {
            let outcome = scan.outcome ?? scan.answerCode ?? "unknown"
            result.outcomes[outcome, default: 0] += 1
            if scan.answerCode == AssistantCode.failure.rawValue { error = "failure:\(outcome)" }
        }
        if let error {
            result.errorsByCode[error, default: 0] += 1
            second.errors += 1
        }
    }

    /// How long the next poll may wait: until the open loop's next send (on its timer, but the
    /// spin window), else 100 ms (the timeout and second checks).
    private mutating func waitBeforeNextTurn() -> Duration {
        guard let timer, mayStartAnother else { return .milliseconds(100) }
        guard let delay = LoadRunner.timerDelay(before: nextOpenLoopSend - .now, spin: settings.spin) else {
            return .zero
        }
        if armedFor != nextOpenLoopSend {
            timer.arm(after: delay)
            armedFor = nextOpenLoopSend
        }
        return .milliseconds(100)
    }

    // MARK: - Timeouts and seconds

    /// Requests that never came back count as timeouts (and a closed loop sends another in their
    /// place); those sent during the warm-up are left out of the figures, as their replies are.
    private mutating func expireOld(at now: ContinuousClock.Instant) throws {
        nextExpiryCheck = now + .milliseconds(100)
        let expired = inFlight.filter { now - $0.value.at > settings.timeout }
        for (id, sent) in expired {
            inFlight[id] = nil
            if sent.at >= measureFrom {
                result.timeouts += 1
                second.timeouts += 1
                result.histogram.record(microseconds: Self.micros(settings.timeout))
                result.timeoutsInLatency += 1
            }
            if interval == nil && mayStartAnother { try send(intended: nil, on: sent.connection) }
        }
    }

    /// Reports the second ending at `boundary` (or, for the run's last, `length` seconds long).
    private mutating func closeSecond(at boundary: ContinuousClock.Instant, length: Double? = nil,
                             _ progress: (LoadRunner.Second, LatencyHistogram) -> Void) {
        let secondStart = boundary - .seconds(length ?? 1)
        // Silent while requests waited (some timed out in it, or one waited through it): a stall,
        // if that request then gets no reply in time (decided when the run ends).
        if !second.anyReply {
            if second.timeouts > 0 {
                silentSeconds.append((second.index, nil))
            } else if let waiting = inFlight.first(where: { $0.value.at <= secondStart })?.key {
                silentSeconds.append((second.index, waiting))
                watched.insert(waiting)
            }
        }
        let replied = second.histogram.count > 0
        let closed = LoadRunner.Second(second: second.index + 1, requests: Int(second.histogram.count),
                                       errors: second.errors, timeouts: second.timeouts,
                                       p50: replied ? second.histogram.quantile(0.5) : nil,
                                       p99: replied ? second.histogram.quantile(0.99) : nil,
                                       seconds: length, invalid: second.invalid)
        result.seconds.append(closed)
        progress(closed, second.histogram)
        second = SecondTally(index: second.index + 1)
        repliesThisSecond = 0
        nextSecond += .seconds(1)
    }

    /// Ends the run: its last whole seconds, the part of a second after them, the requests still
    /// out (the old ones timed out, the others were in flight), and which silent seconds were stalls.
    private mutating func finish(_ progress: (LoadRunner.Second, LatencyHistogram) -> Void) {
        let stopped = min(ContinuousClock.now, end)
        while stopped >= nextSecond { closeSecond(at: nextSecond, progress) }
        let tail = stopped - (nextSecond - .seconds(1))
        if stopped > measureFrom && tail > .zero {
            let length = LoadReport.seconds(tail)
            closeSecond(at: stopped, length: max((length * 1000).rounded() / 1000, 0.001), progress)
        }
        result.elapsed = max(stopped - measureFrom, .zero)
        if let rate = settings.rate, settings.maxRequests != nil {
            // Stopped at a request count: the schedule, not the last reply, sets the time measured.
            result.elapsed = max(result.elapsed, .nanoseconds(Int64(Double(result.completed) / rate * 1e9)))
        }
        let now = ContinuousClock.now
        let waiting = inFlight.values.map(\.at).filter { $0 >= measureFrom }
        let settled = LoadRunner.settle(waiting, at: now, timeout: settings.timeout)
        result.timeouts += settled.timedOut
        for _ in 0..<settled.timedOut { result.histogram.record(microseconds: Self.micros(settings.timeout)) }
        result.timeoutsInLatency += settled.timedOut
        result.unanswered = settled.inFlight
        if !inFlight.isEmpty && stopped > max(lastReply, busySince, measureFrom) {
            result.longestGap = max(result.longestGap, stopped - max(lastReply, busySince, measureFrom))
        }
        if let interval { countUnanswered(waiting, at: stopped, now: now, interval: interval) }
        // A silent second was a stall when its waiting request never got a reply in time
        // (`ParallelLoad` counts them, over every thread's seconds).
        for (index, waiting) in silentSeconds where waiting.map({ watched.contains($0) }) ?? true {
            result.seconds[index].stalled = true
        }
    }

    /// `duration` in microseconds, as the histograms take it.
    static func micros(_ duration: Duration) -> Double {
        duration.inMicroseconds
    }

    /// Open loop: the requests the end left unanswered, in flight (not timed out) and due but
    /// never sent, go into the latencies at their age when the run stopped, a lower bound of
    /// theirs; without them an overloaded server's percentiles would only cover what it managed.
    private mutating func countUnanswered(_ waiting: [ContinuousClock.Instant], at stopped: ContinuousClock.Instant,
                                          now: ContinuousClock.Instant, interval: Duration) {
        for at in waiting where now - at <= settings.timeout {
            result.histogram.record(microseconds: Self.micros(max(stopped - at, .zero)))
            result.unansweredInLatency += 1
        }
        var due = max(nextOpenLoopSend, measureFrom)
        let limit = settings.maxRequests.map { $0 - measuredSent } ?? .max
        while due < stopped && result.unsent < limit {
            result.histogram.record(microseconds: Self.micros(stopped - due))
            result.unsent += 1
            result.unansweredInLatency += 1
            due += interval
        }
    }
}
