import Foundation
import Messages
import ServiceKit
import ZeroMQ

/// One run of a `LoadRunner`: its sockets, the requests in flight and what it has measured, on
/// one thread. Closed loop: every reply (or timeout) sends the next request on the same
/// connection. Open loop: requests go at their scheduled times, whatever has come back.
struct LoadSession {
    let settings: LoadRunner.Settings
    let plan: LoadPlan
    let poller = Poller()
    var sockets: [Socket] = []
    /// Each connection's dropped-connection events (`SocketMonitor`), read with the timeouts.
    var monitors: [SocketMonitor] = []
    let timer: SendTimer?
    let timerIndex: Int?
    /// Whether replies are assistant answers, whose `code` and `outcome` are read.
    let readsAnswers: Bool

    var result = LoadRunner.Result()
    var inFlight: [Int: LoadRunner.Sent] = [:]
    /// Requests that timed out, with their send time, until their late reply comes (its real
    /// latency then replaces the timeout in the histogram); and requests charged with a reply
    /// that named none of ours (taken as theirs), until their own comes. A reply to a request
    /// in none of these, nor in flight, answered one already answered: a duplicate. Past
    /// `settledKept` ids each (a server down under a high rate) no more are kept, and such a
    /// reply is not judged.
    var timedOut: [Int: ContinuousClock.Instant] = [:]
    var charged = Set<Int>()
    var settledOverflowed = false
    static let settledKept = 1 << 20
    /// The first request sent for measuring (ids go up with send times): older ones are the warm-up's.
    var firstMeasuredID = Int.max
    var sequence: Int
    /// Seconds with no reply while requests waited: each with a request that waited through it
    /// (nil: one timed out in it). Confirmed stalls are those whose request never got a reply in
    /// time; a slow server that answers later is not stalled.
    var silentSeconds: [(index: Int, waiting: Int?)] = []
    /// The waiting requests of silent seconds, until their replies come in time.
    var watched = Set<Int>()
    /// Requests sent for measuring (at or after `measureFrom`), against `--requests`.
    var measuredSent = 0
    /// Measured requests whose reply failed validation (settled, against `--requests`).
    var measuredInvalid = 0
    let start: ContinuousClock.Instant
    let measureFrom: ContinuousClock.Instant
    var end: ContinuousClock.Instant
    /// Open loop: nanoseconds between sends (nil: a closed loop). Send `k` is due `k` periods
    /// after the first, worked out each time: a sum of whole-nanosecond intervals ran fast
    /// (600,000/s for 2 s scheduled 1,200,481).
    let periodNanos: Double?
    let firstOpenLoopSend: ContinuousClock.Instant
    /// The open loop's next send, and its number in the schedule.
    var nextOpenLoopSend: ContinuousClock.Instant
    var openLoopIndex = 0
    var armedFor: ContinuousClock.Instant?
    var nextExpiryCheck: ContinuousClock.Instant

    var second = SecondTally()
    var nextSecond: ContinuousClock.Instant
    var nextWarmupLine: ContinuousClock.Instant
    /// Whether lookup replies' content is checked (see `checksContent`), and the ok replies seen this second.
    let readsContent: Bool
    let nearest: Bool
    var okRepliesThisSecond = 0
    /// When the last reply of any kind came, and since when some request has been waiting
    /// without a break (for the longest gap without a reply).
    var lastReply: ContinuousClock.Instant
    var busySince: ContinuousClock.Instant

    var frame: [UInt8] = []
    var members: [StrictJSON.Member] = []
    let delimiter = [Data()]

    /// What one second has measured so far.
    struct SecondTally {
        var histogram = LatencyHistogram()
        var errors = 0
        var timeouts = 0
        var invalid = 0
        var index = 0
        /// Any reply came (a warm-up request's, a late or an invalid one too): the server answered.
        var anyReply = false
    }

    /// Every reply's content is checked up to this many a second on a thread, then one reply in
    /// `sampleEvery`, drawn at random: a full check costs the generator CPU that a benchmark at
    /// 150,000 replies a second would take from the server it measures. At random, not every
    /// 64th: a server wrong on every second reply showed 59% wrong in a sample taken in step
    /// with it (QA).
    static let checkAllUpTo = 1000
    static let sampleEvery = 64
    var sampler = ReplySampler(oneIn: sampleEvery)

    /// An open loop behind its schedule sends at most this many requests a turn, then reads
    /// replies and sees the end, a Ctrl-C and the second's close. Unbounded, a rate beyond what
    /// the generator can send made each turn's burst longer than the last: replies went unread
    /// (counted as timeouts and a stalled server) and the run overran its duration and Ctrl-C.
    static let sendsPerTurn = 1000

    init(settings: LoadRunner.Settings, plan: LoadPlan, context: Context) throws {
        self.settings = settings
        self.plan = plan
        readsAnswers = plan.target == .router
        readsContent = plan.target == .lookup && !plan.queries.isEmpty && settings.checksContent
        nearest = plan.typeName == MessageType.lookupNearest.rawValue
        for _ in 0..<settings.connections {
            let socket = try Socket(context, .dealer)
            socket.linger = .zero
            socket.sendHighWaterMark = 0
            socket.receiveHighWaterMark = 0
            // Replicas of a list: every connection reaches each, and ZeroMQ deals its requests
            // round-robin between them, as the services' own clients spread theirs.
            for replica in Endpoint.list(settings.endpoint) { try socket.connect(replica) }
            poller.add(socket)
            monitors.append(try SocketMonitor(watching: socket))
            sockets.append(socket)
        }
        periodNanos = settings.rate.map { 1e9 / max($0, 0.001) }
        // The open loop sleeps until its next send on a timer the poll waits on with the sockets.
        let timer = periodNanos == nil ? nil : try SendTimer()
        self.timer = timer
        timerIndex = timer.map { [poller] in poller.add(fileDescriptor: $0.fileDescriptor) }
        inFlight.reserveCapacity(settings.concurrency * 2)
        sequence = settings.firstSequence
        start = .now
        measureFrom = start + settings.warmup
        end = measureFrom + settings.duration
        firstOpenLoopSend = start + settings.openLoopOffset
        nextOpenLoopSend = firstOpenLoopSend
        nextExpiryCheck = start + .milliseconds(100)
        nextSecond = measureFrom + .seconds(1)
        nextWarmupLine = start + .seconds(1)
        lastReply = start
        busySince = start
    }

    mutating func run(progress: (LoadRunner.Second, LatencyHistogram) -> Void) throws -> LoadRunner.Result {
        if periodNanos == nil {
            for slot in 0..<settings.concurrency where mayStartAnother { try send(intended: nil, on: slot % sockets.count) }
        }
        var cpuAtMeasureStart: Duration?
        while true {
            let now = ContinuousClock.now
            if cpuAtMeasureStart == nil && now >= measureFrom {
                cpuAtMeasureStart = ProcessCPU.used()
                okRepliesThisSecond = 0
            }
            if LoadRunner.stopRequested.load(ordering: .relaxed) {
                result.interrupted = true
                if now < measureFrom && result.interruptedInWarmupAfter == nil {
                    result.interruptedInWarmupAfter = now - start
                }
                end = min(end, now)
            }
            if now >= end || hasEnoughReplies { break }
            if periodNanos != nil {
                var sentThisTurn = 0
                while nextOpenLoopSend <= now && mayStartAnother && sentThisTurn < Self.sendsPerTurn {
                    try send(intended: nextOpenLoopSend, on: sequence % sockets.count)
                    openLoopIndex += 1
                    nextOpenLoopSend = openLoopDue(openLoopIndex)
                    sentThisTurn += 1
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
            // The run's last second is closed by `finish`, with the timeouts found as it ends.
            if checked >= nextSecond && nextSecond < end { closeSecond(at: nextSecond, progress) }
            if checked >= nextWarmupLine && checked < measureFrom {
                settings.warmupProgress?(LoadRunner.warmupReplies.load(ordering: .relaxed), measureFrom - checked)
                nextWarmupLine += .seconds(1)
                okRepliesThisSecond = 0
            }
        }
        finish(progress)
        result.sequencesSent = [settings.firstSequence..<sequence]
        if let cpuAtMeasureStart, let used = ProcessCPU.used() { result.generatorCPU = used - cpuAtMeasureStart }
        return result
    }

    // MARK: - Sending and receiving

    /// Whether another measured request may go out (`--requests` not reached yet).
    var mayStartAnother: Bool {
        guard let limit = settings.maxRequests else { return true }
        return measuredSent < limit || ContinuousClock.now < measureFrom
    }

    /// With `--requests`: every measured request has been answered or has timed out.
    var hasEnoughReplies: Bool {
        guard let limit = settings.maxRequests else { return false }
        return result.completed + result.timeouts + measuredInvalid >= limit
    }

    /// Sends the next request on connection `connection`. Its latency counts from `intended`
    /// (open loop: its place in the schedule), or from the moment it goes out when nil (closed loop).
    mutating func send(intended: ContinuousClock.Instant?, on connection: Int) throws {
        plan.frame(sequence, into: &frame)
        let now = ContinuousClock.now
        let at = intended ?? now
        if inFlight.isEmpty { busySince = now }
        inFlight[sequence] = LoadRunner.Sent(at: at, sentAt: now, connection: connection)
        if at >= measureFrom {
            firstMeasuredID = min(firstMeasuredID, sequence)
            measuredSent += 1
            result.sent += 1
            if intended != nil { result.sendLag.record(microseconds: Self.micros(max(now - at, .zero))) }
        }
        try sockets[connection].send(delimiter, then: frame)
        sequence += 1
    }

    /// When the open loop's send number `index` is due.
    func openLoopDue(_ index: Int) -> ContinuousClock.Instant {
        firstOpenLoopSend + .nanoseconds(Int64((Double(index) * (periodNanos ?? 0)).rounded()))
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
}
