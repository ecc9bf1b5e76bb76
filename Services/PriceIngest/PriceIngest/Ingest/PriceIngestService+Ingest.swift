import FeedParsing
import Foundation
import Messages
import ServiceKit
import SQLite

/// The ingest pipeline: parse (off the loop, `FeedParseQueue`), check the feed is not older than
/// the stored one, commit, publish.
extension PriceIngestService {
    /// A feed handed to the parse queue: what its commit and its answer need when the parse is back.
    struct IngestJob {
        let data: Data
        let retailer: String
        let source: String?
        let requestID: String
        let polled: Bool
        let fetchedAt: Date
        /// Who asked (nil for a poll).
        let responder: Responder?
    }

    /// Parses, validates, commits and publishes one feed; `job.responder` hears the outcome (an
    /// `IngestFeedReply` or the error). Nothing is stored if it fails. A client's feed that would
    /// take the feeds waiting past `maxWaitingFeedBytes` is refused (one alone never is); a polled
    /// one never is (one per configured feed at most).
    func ingest(_ job: IngestJob) {
        if !job.polled, !parsing.isEmpty, parsingBytes + job.data.count > configuration.maxWaitingFeedBytes {
            return refuseWhileBusy(job)
        }
        let ticket = nextTicket
        nextTicket += 1
        parsing[ticket] = job
        parsingBytes += job.data.count
        parseQueue.parse(job.data, retailer: job.retailer, fetchedAt: job.fetchedAt, parser: parser, ticket: ticket)
    }

    /// Answers `unavailable` to a client's feed that would take the feeds waiting past
    /// `maxWaitingFeedBytes` (counted and logged; its feed's status is untouched: the feed was not read).
    private func refuseWhileBusy(_ job: IngestJob) {
        feedsRefusedWaiting += 1
        let message = "price-ingest has \(parsing.count) feed(s) (\(ByteText.mebibytes(parsingBytes))) waiting to be "
            + "parsed, at most \(ByteText.mebibytes(configuration.maxWaitingFeedBytes)) with this one: nothing was changed; "
            + "send this feed again once they are done (one at a time, as fuelboard ingest does)"
        logRefusal(["svc.request.id": job.requestID, "retailer": job.retailer, "reason": message])
        job.responder?.fail(ServiceError(.unavailable, message))
    }

    /// A parse is back: the feed is committed and published, and its asker answered.
    func parseCompleted(_ frames: [Data]) {
        guard let (ticket, parsed) = parseQueue.take(frames), let job = parsing.removeValue(forKey: ticket) else {
            return
        }
        parsingBytes -= job.data.count
        do {
            let reply = try commit(parsed, of: job)
            job.responder?.reply(reply)
        } catch {
            job.responder?.fail(error)
        }
    }

    /// Commits a parsed feed. A feed older than the stored one is refused with `conflict` (recorded
    /// in the feed's status, logged, nothing published) when `polled` (a configured feed's poll), else
    /// applied with an `older_feed` warning (an ingest.feed request replaces the stations, as the
    /// contract says); see `FeedOrder`. A failure is recorded in the feed's status; a request's only
    /// for a retailer already stored (a poll's creates its configured feed's status).
    private func commit(_ parse: FeedParseQueue.Parsed, of job: IngestJob) throws(ServiceError) -> IngestFeedReply {
        let (retailer, source, requestID, polled) = (job.retailer, job.source, job.requestID, job.polled)
        let noteFailure = { (message: String) in
            self.recordFailure(retailer: retailer, message: message, source: source, polled: polled)
        }
        let parsed: ParsedFeed
        switch parse.outcome {
        case .success(let feed):
            parsed = feed
        case .failure(let error):
            noteFailure(error.message)
            logRefusal(["svc.request.id": requestID, "retailer": retailer, "reason": error.message])
            throw error.serviceError
        }
        // A feed with no usable station is an outage or a truncated copy far more often than a
        // retailer closing every forecourt: it never empties the retailer (an empty list did, and
        // so did stations all at 0,0 or all without a price, which emptied a retailer's answers
        // (QA)). Records kept but none answerable replace only a retailer with none to lose either
        // (a real feed's lone station in Gibraltar).
        if parsed.acceptedCount == 0 || (parsed.answerableCount == 0 && hasAnswerableStations(retailer)) {
            let message = parsed.acceptedCount > 0
                ? "none of the feed's \(parsed.acceptedCount + parsed.refusedCount) records has both a usable "
                    + "location and a price; nothing was changed"
                : parsed.refusedCount > 0
                ? "none of the feed's \(parsed.refusedCount) records could be used; nothing was changed"
                : "the feed lists no stations; nothing was changed"
            noteFailure(message)
            logRefusal(["svc.request.id": requestID, "retailer": retailer, "reason": message,
                        "summary": parsed.summary])
            // The records' reasons; a feed with none has nothing to explain (its staleness is moot).
            let reasons = parsed.refusedCount > 0 ? Self.sentences(parsed) : []
            throw ServiceError.badRequest(message + (reasons.isEmpty ? "" : " (" + reasons.joined(separator: "; ") + ")"))
        }
        let replacedNewer = try checkOrder(parsed, refusesOlder: polled, source: source, requestID: requestID)
        try refuseIfStoreFileGone(retailer: retailer)
        let version: UInt64
        let fingerprint = FeedFingerprint.of(job.data)
        do {
            version = try store.replaceRetailer(retailer, stations: parsed.stations, updated: parsed.updated,
                                                fetchedAt: job.fetchedAt, source: source,
                                                contentHash: fingerprint)
        } catch {
            let cause = (error as? SQLiteError)?.message ?? "\(error)"
            noteCommitFailure(cause, retailer: retailer)
            noteFailure("could not be stored: \(cause)")
            throw ServiceError(.internal, "the feed could not be stored (\(cause)); nothing was changed")
        }
        head = fingerprint
        publisher.publish(RetailerState(version: version, retailer: retailer, updated: parsed.updated,
                                        stations: parsed.stations, fingerprint: fingerprint))
        var metadata = ["svc.request.id": requestID, "retailer": retailer, "version": "\(version)",
                        "summary": parsed.summary, "parseMs": "\(parse.took.wholeMilliseconds)"]
        var warnings = Self.sentences(parsed)
        var warningsByKind = parsed.warnings
        if let replacedNewer {
            let warning = FeedOrder.olderWarning(feedTime: parsed.updated, storedTime: replacedNewer)
            metadata["older"] = warning
            warnings.append(warning)
            warningsByKind[FeedOrder.olderKind] = 1
        }
        logger.info("feed ingested", metadata: metadata)
        return IngestFeedReply(
            retailer: retailer, accepted: parsed.acceptedCount, rejected: parsed.refusedCount,
            withoutLocation: parsed.acceptedCount - parsed.locatedCount, version: version, updated: parsed.updated,
            warnings: warnings, refusedByReason: parsed.refused, warningsByKind: warningsByKind)
    }

    /// Whether the retailer's stored stations include one a lookup can give (located, priced); an
    /// unreadable store counts as yes, so nothing is replaced on a guess.
    private func hasAnswerableStations(_ retailer: String) -> Bool {
        guard let stored = try? store.stations(retailer: retailer) else { return true }
        return stored.contains { $0.location != nil && !$0.prices.isEmpty }
    }

    /// True when a polled `data` is byte for byte the feed already stored for `retailer`: then only
    /// the fetch is recorded (a success, nothing stored, no version, nothing published) and one line
    /// says so. Retailers publish a few times a day; a poll every 30 minutes mostly finds this.
    func isUnchangedPoll(_ data: Data, retailer: String, source: String) -> Bool {
        guard let stored = try? store.contentHash(of: retailer), stored == FeedFingerprint.of(data) else {
            return false
        }
        do {
            try store.recordUnchangedFetch(retailer, at: Date())
        } catch {
            logger.error("fetch not recorded", metadata: ["retailer": retailer, "error": "\(error)"])
        }
        logger.info("feed unchanged", metadata: ["retailer": retailer, "source": source,
                                                 "version": "\((try? store.feed(retailer))??.version ?? 0)"])
        return true
    }

    /// Refuses `parsed` with `conflict` when it is older than the stored feed and `refusesOlder` (the
    /// refusal is recorded in the feed's status and logged in one line). Returns the stored feed's
    /// time when an older feed is about to replace a newer one, else nil.
    private func checkOrder(_ parsed: ParsedFeed, refusesOlder: Bool, source: String?, requestID: String)
        throws(ServiceError) -> Date?
    {
        let stored: FeedRecord?
        do {
            stored = try store.feed(parsed.retailer)
        } catch {
            logger.error("stored feed unreadable", metadata: ["retailer": parsed.retailer, "error": "\(error)"])
            throw ServiceError(.internal, "the stored feed could not be read; nothing was changed")
        }
        let order = FeedOrder(futureTolerance: parser.futureTolerance)
        guard let storedTime = order.storedTimeNewer(than: parsed, stored: stored) else { return nil }
        if !refusesOlder { return storedTime }
        let refusal = FeedOrder.refusal(retailer: parsed.retailer, feedTime: parsed.updated, storedTime: storedTime)
        recordFailure(retailer: parsed.retailer, message: refusal.message, source: source, polled: true)
        var metadata = ["svc.request.id": requestID, "retailer": parsed.retailer, "reason": refusal.message]
        if let source { metadata["source"] = source }
        logRefusal(metadata)
        throw refusal
    }

    /// Refuses (`internal`, counted and logged) while the store's file is gone: deleted, or another
    /// file put in its place, while running. Commits would go to a file nobody will open again, and
    /// be acknowledged; the restart would not find them.
    func refuseIfStoreFileGone(retailer: String) throws(ServiceError) {
        guard !store.isStillItsFile else { return }
        let message = "the store's file \(store.fileURL.path) is gone (deleted or replaced while price-ingest "
            + "ran); nothing can be stored until price-ingest is restarted"
        noteCommitFailure(message, retailer: retailer)
        throw ServiceError(.internal, message + "; nothing was changed")
    }

    /// Counts a commit that failed (shown by `sys.stats`) and logs it.
    func noteCommitFailure(_ cause: String, retailer: String) {
        commitFailures += 1
        lastCommitError = cause
        logger.error("commit failed", metadata: ["retailer": retailer, "error": cause])
    }

    /// One "feed refused" line, unless more than 20 came this second (they are counted instead).
    func logRefusal(_ metadata: [String: String]) {
        guard refusalLines.admit(logging: logger) else { return }
        logger.warning("feed refused", metadata: metadata)
    }

    /// Records a failed feed in its status (`StationStore.recordFeedFailure`): a configured feed's
    /// poll creates the status of a retailer not stored yet, a request does not.
    func recordFailure(retailer: String, message: String, source: String?, polled: Bool) {
        do {
            try store.recordFeedFailure(retailer, message: message, at: Date(), source: source, createsFeed: polled)
        } catch {
            logger.error("could not record feed failure", metadata: ["retailer": retailer, "error": "\(error)"])
        }
    }

    /// Human sentences for the reply: each refusal and warning kind with its count and examples.
    static func sentences(_ parsed: ParsedFeed) -> [String] {
        let refused = parsed.refused.sorted { $0.key < $1.key }.map { reason, count in
            "refused \(count) record(s): \(reason)" + examples(parsed.refusedExamples[reason])
        }
        let warned = parsed.warnings.sorted { $0.key < $1.key }.map { kind, count in
            "\(kind): \(count)" + examples(parsed.warningExamples[kind])
        }
        return refused + warned
    }

    private static func examples(_ list: [String]?) -> String {
        guard let list, !list.isEmpty else { return "" }
        return " (e.g. " + list.prefix(3).joined(separator: "; ") + ")"
    }
}
