import Foundation
import Messages
import ServiceKit
import ZeroMQ

/// Taking replies off the sockets: matching each to its request, checking it, counting it once.
extension LoadSession {
    /// Takes one reply off connection `connection` if there is one; false when none is waiting.
    /// Its latency ends when it came off the socket, before the generator reads and checks it.
    /// A closed loop sends the next request on the same connection, as its client would, after
    /// any reply to one of its requests: valid, invalid or late.
    mutating func receiveOne(from connection: Int) throws -> Bool {
        var scan: ReplyScan?
        var arrived = ContinuousClock.now
        var looseID: Int?
        var checkedContent = false
        var problem: LookupCheck.Problem?
        var framed = true
        var foreignID = false
        var errorMessage: String?
        do {
            let checking = readsContent
                && (okRepliesThisSecond < Self.checkAllUpTo || sampler.take())
            scan = try sockets[connection].receiveLastFrame(dontWait: true) { [plan, nearest, known = result.firstErrorMessages]
                frameCount, payload in
                arrived = ContinuousClock.now
                // The contract's reply on a DEALER: an empty delimiter, then one JSON frame.
                framed = frameCount == 2
                let bytes = payload.bindMemory(to: UInt8.self)
                guard let scan = ReplyScan.read(bytes, members: &members, answers: readsAnswers, list: checking) else {
                    looseID = ReplyScan.looseID(bytes)
                    foreignID = looseID == nil && ReplyScan.namesForeignID(bytes)
                    return nil
                }
                // The server's own words for a code not seen yet: read once a code, for the report.
                if !scan.ok, let code = scan.errorCode, known[code] == nil {
                    errorMessage = ReplyScan.errorMessage(bytes)
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
        // Error replies have nothing to check: they do not spend the second's checks (QA: with two
        // replies in three errors, 874 of 13,900 ok replies were checked).
        if scan?.ok == true { okRepliesThisSecond += 1 }
        second.anyReply = true
        // Any reply, late or invalid too, shows the server alive: the gap ends here.
        let quietSince = max(lastReply, busySince, measureFrom)
        if !inFlight.isEmpty && arrived > quietSince {
            result.longestGap = max(result.longestGap, arrived - quietSince)
        }
        lastReply = arrived
        let given = scan?.id ?? looseID
        var unmatched: String?
        var id = given ?? -1
        var waiting = given == nil ? nil : inFlight.removeValue(forKey: id)
        if waiting == nil {
            // Ids go up from `firstSequence`: one sent but no longer in flight timed out before,
            // or was answered before: a second reply to one request is the server's fault.
            if let known = given, known >= settings.firstSequence && known < sequence {
                if let sentAt = timedOut.removeValue(forKey: known) {
                    // Late: its real latency replaces the timeout it was counted at (a stall's
                    // length shows in the max, not the timeout's).
                    if sentAt >= measureFrom {
                        result.lateReplies += 1
                        result.histogram.replace(microseconds: Self.micros(settings.timeout),
                                                 with: Self.micros(arrived - sentAt))
                    }
                } else if charged.remove(known) == nil && !settledOverflowed && known >= firstMeasuredID {
                    invalid(Self.duplicate)
                    result.duplicateReplies += 1
                }
                return true
            }
            // No id of a request waiting: the server answered one of this connection's requests
            // without saying which. Taken as the oldest's answer (an invalid one), so it is counted
            // once and frees its place, instead of also timing out and being blamed on the server.
            unmatched = given == nil && !foreignID ? Self.unreadable : Self.notOurs
            if let oldest = oldestWaiting(on: connection) {
                id = oldest
                waiting = inFlight.removeValue(forKey: oldest)
                if charged.count < Self.settledKept { charged.insert(oldest) } else { settledOverflowed = true }
            }
        }
        guard let sent = waiting else {
            if arrived >= measureFrom { invalid(unmatched ?? Self.notOurs) }  // nothing of ours was waiting
            return true
        }
        if !watched.isEmpty { watched.remove(id) }  // answered: the silence it waited through was no stall
        // An assistant's reply that is ok must carry its answer: a `code` the contract names.
        let noAnswer = readsAnswers && scan?.ok == true && AssistantCode(rawValue: scan?.answerCode ?? "") == nil
        let isInvalid = !framed || unmatched != nil || scan == nil || problem != nil || noAnswer
        // Counted among the measured replies (`requests`, invalid): not one later than --timeout,
        // a timeout (okReplies was 270,637 beside 147,103 replies in an overloaded run: QA).
        if sent.at >= measureFrom && (isInvalid || arrived - sent.sentAt <= settings.timeout) {
            if scan?.ok == true { result.okReplies += 1 }
            if checkedContent { result.contentChecked += 1 }
        }
        if isInvalid {
            // Replies to warm-up requests are left out, the invalid as the valid.
            if sent.at >= measureFrom {
                invalid(framed ? unmatched ?? problem?.rawValue ?? (noAnswer ? Self.noAnswer : Self.unreadable)
                            : Self.misframed)
                measuredInvalid += 1
            }
        } else if let scan, arrived - sent.sentAt <= settings.timeout {
            if sent.at >= measureFrom {
                record(scan, latency: arrived - sent.at, errorMessage: errorMessage)
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
        if periodNanos == nil && arrived < end && mayStartAnother { try send(intended: nil, on: connection) }
        return true
    }

    /// The request waiting longest on `connection` (ids grow with time), if any.
    func oldestWaiting(on connection: Int) -> Int? {
        var oldest: Int?
        for (id, sent) in inFlight where sent.connection == connection && id < (oldest ?? .max) { oldest = id }
        return oldest
    }

    /// Why a reply failed validation, besides the content problems of `LookupCheck`.
    static let unreadable = "not a JSON reply envelope with an id"
    static let notOurs = "an id the generator never sent"
    static let duplicate = "a second reply to one request"
    static let misframed = "not one JSON frame after an empty delimiter"
    static let noAnswer = "ok, but no assistant answer (a body with a code the contract names)"

    /// Counts a reply that failed validation, and why.
    mutating func invalid(_ reason: String) {
        result.invalidReplies += 1
        result.invalidByReason[reason, default: 0] += 1
        second.invalid += 1
    }

    /// Counts a measured reply: its latency, and an error when it is one (an assistant's answer
    /// that failed counts as `failure:<outcome>`).
    mutating func record(_ scan: ReplyScan, latency: Duration, errorMessage: String? = nil) {
        let micros = Self.micros(latency)
        result.histogram.record(microseconds: micros)
        second.histogram.record(microseconds: micros)
        result.completed += 1
        result.fastestReply = min(result.fastestReply ?? micros, micros)
        var error: String?
        if !scan.ok {
            error = scan.errorCode ?? "unreadable"
        } else if readsAnswers {
            let outcome = scan.outcome ?? scan.answerCode ?? "unknown"
            result.outcomes[outcome, default: 0] += 1
            if scan.answerCode == AssistantCode.failure.rawValue {
                error = "failure:\(outcome)"
            } else if let degraded = scan.degraded {
                // Answered, but without a backend (down or late): not the whole path measured.
                error = LoadReport.degradedPrefix + degraded
            }
        }
        if let error {
            result.errorsByCode[error, default: 0] += 1
            if let message = errorMessage, result.firstErrorMessages[error] == nil {
                result.firstErrorMessages[error] = message
            }
            second.errors += 1
        }
    }
}
