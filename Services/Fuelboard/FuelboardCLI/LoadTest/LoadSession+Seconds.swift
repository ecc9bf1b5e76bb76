import Foundation
import Messages
import ServiceKit
import ZeroMQ

/// Timeouts, the seconds of the progress line and the chart, and the end of a run.
extension LoadSession {
    /// Requests that never came back count as timeouts (and a closed loop sends another in their
    /// place); those sent during the warm-up are left out of the figures, as their replies are.
    mutating func expireOld(at now: ContinuousClock.Instant) throws {
        nextExpiryCheck = now + .milliseconds(100)
        for (connection, monitor) in monitors.enumerated() where monitor.takeDisconnects() {
            try loseRequests(on: connection, at: now)
        }
        let expired = inFlight.filter { now - $0.value.sentAt > settings.timeout }
        for (id, sent) in expired {
            try timeOut(id, sent, latency: settings.timeout)
        }
    }

    /// The requests in flight on `connection`, whose connection dropped: timed out now, at their
    /// age (`timeoutsOnDisconnect`). A closed loop sends their places again on it (ZeroMQ
    /// reconnects it, and holds what is sent meanwhile).
    mutating func loseRequests(on connection: Int, at now: ContinuousClock.Instant) throws {
        for (id, sent) in inFlight where sent.connection == connection {
            if sent.at >= measureFrom { result.timeoutsOnDisconnect += 1 }
            try timeOut(id, sent, latency: now - sent.at)
        }
    }

    /// Request `id` timed out: counted (a measured one in the latencies at `latency`), kept for a
    /// late reply, and in a closed loop its place sent again on its connection.
    private mutating func timeOut(_ id: Int, _ sent: LoadRunner.Sent, latency: Duration) throws {
        inFlight[id] = nil
        if timedOut.count < Self.settledKept { timedOut[id] = sent.at } else { settledOverflowed = true }
        if sent.at >= measureFrom {
            result.timeouts += 1
            second.timeouts += 1
            result.histogram.record(microseconds: Self.micros(latency))
            result.timeoutsInLatency += 1
        }
        if periodNanos == nil && mayStartAnother { try send(intended: nil, on: sent.connection) }
    }

    /// Reports the second ending at `boundary` (or, for the run's last, `length` seconds long).
    mutating func closeSecond(at boundary: ContinuousClock.Instant, length: Double? = nil,
                             _ progress: (LoadRunner.Second, LatencyHistogram) -> Void) {
        let secondStart = boundary - .seconds(length ?? 1)
        // Silent while requests waited (some timed out in it, or one waited through it): a stall,
        // if that request then gets no reply in time (decided when the run ends).
        // Requests waited in it, for its progress line: one did through nine tenths of it at least
        // (the run's first second starts with the first sends).
        var waited = false
        if !second.anyReply {
            let nearStart = secondStart + .seconds((length ?? 1) / 10)
            waited = second.timeouts > 0 || inFlight.values.contains { $0.sentAt <= nearStart }
            if second.timeouts > 0 {
                silentSeconds.append((second.index, nil))
            } else if let waiting = inFlight.first(where: { $0.value.sentAt <= secondStart })?.key {
                silentSeconds.append((second.index, waiting))
                watched.insert(waiting)
            }
        }
        let replied = second.histogram.count > 0
        let closed = LoadRunner.Second(second: second.index + 1, requests: Int(second.histogram.count),
                                       errors: second.errors, timeouts: second.timeouts,
                                       p50: replied ? second.histogram.quantile(0.5) : nil,
                                       p99: replied ? second.histogram.quantile(0.99) : nil,
                                       seconds: length, waited: waited ? true : nil, invalid: second.invalid)
        result.seconds.append(closed)
        progress(closed, second.histogram)
        second = SecondTally(index: second.index + 1)
        okRepliesThisSecond = 0
        nextSecond += .seconds(1)
    }

    /// Ends the run: its last whole seconds, the part of a second after them, the requests still
    /// out (the old ones timed out, the others were in flight), and which silent seconds were stalls.
    mutating func finish(_ progress: (LoadRunner.Second, LatencyHistogram) -> Void) {
        let stopped = min(ContinuousClock.now, end)
        let now = ContinuousClock.now
        let waiting = inFlight.values.filter { $0.at >= measureFrom }
        let settled = LoadRunner.settle(waiting.map(\.sentAt), at: now, timeout: settings.timeout)
        // Those found timed out now belong to the run's last second: counted in it before it is
        // reported, so the seconds (and their progress lines) add up to the total.
        var lastBoundary = nextSecond - .seconds(1)
        while stopped >= lastBoundary + .seconds(1) { lastBoundary += .seconds(1) }
        let tail = stopped - lastBoundary
        let endsInAPart = stopped > measureFrom && tail > .zero
        while stopped >= nextSecond {
            if !endsInAPart && nextSecond == lastBoundary { second.timeouts += settled.timedOut }
            closeSecond(at: nextSecond, progress)
        }
        if endsInAPart {
            second.timeouts += settled.timedOut
            let length = LoadReport.seconds(tail)
            closeSecond(at: stopped, length: max((length * 1000).rounded() / 1000, 0.001), progress)
        }
        result.elapsed = max(stopped - measureFrom, .zero)
        if let rate = settings.rate, settings.maxRequests != nil {
            // Stopped at a request count: the schedule, not the last reply, sets the time measured.
            result.elapsed = max(result.elapsed, .nanoseconds(Int64(Double(result.completed) / rate * 1e9)))
        }
        result.timeouts += settled.timedOut
        for _ in 0..<settled.timedOut { result.histogram.record(microseconds: Self.micros(settings.timeout)) }
        result.timeoutsInLatency += settled.timedOut
        result.unanswered = settled.inFlight
        if !inFlight.isEmpty && stopped > max(lastReply, busySince, measureFrom) {
            result.longestGap = max(result.longestGap, stopped - max(lastReply, busySince, measureFrom))
        }
        if let periodNanos { countUnanswered(waiting, at: stopped, now: now, periodNanos: periodNanos) }
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
    mutating func countUnanswered(_ waiting: [LoadRunner.Sent], at stopped: ContinuousClock.Instant,
                                          now: ContinuousClock.Instant, periodNanos: Double) {
        for sent in waiting where now - sent.sentAt <= settings.timeout {
            result.histogram.record(microseconds: Self.micros(max(stopped - sent.at, .zero)))
            result.unansweredInLatency += 1
        }
        // From the next send due, or the first due in the measured time if the schedule is behind
        // that: found from an estimate by the due times themselves (the estimate alone, rounded
        // up, skipped a send due exactly as measuring began: 3/s after a 5 s warm-up).
        var firstMeasured = max(0, Int((LoadReport.seconds(measureFrom - firstOpenLoopSend) * 1e9 / periodNanos)
            .rounded(.down)) - 1)
        while openLoopDue(firstMeasured) < measureFrom { firstMeasured += 1 }
        var index = max(openLoopIndex, firstMeasured)
        let limit = settings.maxRequests.map { $0 - measuredSent } ?? .max
        var due = openLoopDue(index)
        while due < stopped && result.unsent < limit {
            result.histogram.record(microseconds: Self.micros(stopped - due))
            result.unsent += 1
            result.unansweredInLatency += 1
            index += 1
            due = openLoopDue(index)
        }
    }
}
