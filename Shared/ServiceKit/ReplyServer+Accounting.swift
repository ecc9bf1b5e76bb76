import Foundation
import Messages
import ZeroMQ

/// Counting handled requests for `sys.stats`, and their log lines (failures throttled).
extension ReplyServer {
    /// Counts a handled request; `nanoseconds` runs from taking it off the socket to its reply
    /// being ready (the send is left out: on a busy core it can include other threads' turns).
    func record(_ request: IncomingRequest, nanoseconds: UInt64, error: ServiceError?, now: UInt64) {
        if request.statsSlot == batchStatsSlot && request.batch == nil {  // a frame that carried requests
            stats.recordCarrier(slot: request.statsSlot, error: error?.code)
        } else {
            stats.record(slot: request.statsSlot, error: error?.code, microseconds: Double(nanoseconds) / 1000, now: now)
        }
        if let error, error.code != .notFound {
            guard failureLines.admit(logging: logger, now: Self.monotonicNanoseconds()) else {
                flushLogCountsLater()
                return
            }
            // The client's mistake is information; a dependency down is a warning; our own fault an error.
            let level: Logger.Level = switch error.code {
            case .internal: .error
            case .unavailable, .timeout: .warning
            default: .info
            }
            logger.log(level, "request failed", metadata: ["svc.request.id": request.logID,
                                                           "svc.type": request.logType,
                                                           "code": error.code.rawValue, "message": error.message])
        } else {
            logger.debug("request", metadata: ["svc.request.id": request.logID, "svc.type": request.logType])
        }
    }

    /// Makes sure the counts of lines left out get written when what they count stops: a timer a
    /// second away (and another while a count's second has not ended). Without such lines, no
    /// timer runs.
    func flushLogCountsLater() {
        guard !logFlushDue else { return }
        logFlushDue = true
        after(.seconds(1)) { [weak self] in
            guard let self else { return }
            logFlushDue = false
            let now = Self.monotonicNanoseconds()
            let failuresWaiting = failureLines.flush(logging: logger, now: now)
            let undeliveredWaiting = undeliveredLines.flush(logging: logger, now: now)
            let refusedWaiting = refusedLines.flush(logging: logger, now: now)
            if failuresWaiting || undeliveredWaiting || refusedWaiting { flushLogCountsLater() }
        }
    }
}
