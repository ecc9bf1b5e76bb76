import FeedParsing
import Foundation
import Messages
import ServiceKit
import Synchronization
import ZeroMQ

/// price-ingest: takes retailer feeds, validates and normalises them, commits them to SQLite,
/// then publishes each accepted retailer state on PUB with a new version. A polled copy older than the
/// feed stored for its retailer is refused (`FeedOrder`), so a poll never rolls prices back; an
/// ingest.feed request replaces them as asked (the contract), with a warning.
///
/// One loop thread owns the store, the ROUTER and the PUB sockets. URL fetches run on a
/// background queue and hand their bytes back to the loop over an inproc PULL socket, so slow
/// retailers never block requests; feeds are parsed on another (`FeedParseQueue`), so a large one
/// does not either. An ingest is acknowledged only after its commit.
public final class PriceIngestService {
    /// Requests and replies held for one client at most (`ReplyServer.queuedPerClient`): what one
    /// client may have outstanding (at 100, a test's 200 file:// fetches sent at once lost replies).
    public static let queuedPerClient = 1_000
    /// Requests read from one connection ahead of the loop (`ReplyServer.requestsReadAhead`): a feed
    /// may be 64 MiB, and 40 of 30 MB sent at once were read in whole (1.8 GB) while the loop worked.
    public static let requestsReadAhead = 4
    /// How long a stop waits for the feeds in hand (a 90,000-station feed parses in ~4 s here).
    public static let stopGrace: Duration = .seconds(12)

    public let server: ReplyServer
    let store: StationStore
    let publisher: PricePublisher
    let configuration: PriceIngestConfiguration
    let logger: Logger
    let parser = FeedParser()
    /// Fetches a client asked for (`ingest.feed` with a URL), two at a time per host: never behind a
    /// poll of the feeds list, nor behind another host's server that hangs (up to three attempts of
    /// `--fetch-timeout` each; four hanging fetches to one host held every other for 63 s).
    private var requestedFetches: [String: OperationQueue] = [:]
    /// The feeds list's polls, two at a time.
    private let polledFetches = PriceIngestService.fetchQueue("polled", concurrent: 2)

    private static func fetchQueue(_ name: String, concurrent: Int) -> OperationQueue {
        let queue = OperationQueue()
        queue.name = "price-ingest.fetch.\(name)"
        queue.maxConcurrentOperationCount = concurrent
        return queue
    }
    private let fetchResults: Socket
    private let fetchResultsEndpoint: String
    private let context: Context
    /// Deferred `ingest.feed` replies waiting for a fetch, by ticket.
    private var pending: [UInt64: Responder] = [:]
    var nextTicket: UInt64 = 1
    /// The fingerprint of the feed stored at the store's version (`PriceHeartbeat.head`).
    var head: String?
    /// Feeds being parsed, by ticket (`ingest`), and their bytes.
    var parsing: [UInt64: IngestJob] = [:]
    var parsingBytes = 0
    /// Feeds a client sent refused because those waiting to be parsed held `maxWaitingFeedBytes`.
    var feedsRefusedWaiting: UInt64 = 0
    let parseQueue: FeedParseQueue
    private let parseResults: Socket
    private var fetchesInFlight = Set<String>()
    /// "feed refused" lines, at most 20 a second (a client sending broken feeds in a loop).
    var refusalLines = LogThrottle(perSecond: 20, leftOutEvent: "feed refusals not logged")
    /// "requested feed not found" lines, likewise (a `not_found` reply logs no "request failed").
    var missingFeedLines = LogThrottle(perSecond: 20, leftOutEvent: "missing feeds not logged")
    /// Commits that failed (disk full, an I/O error, a damaged file), and the last one's cause.
    var commitFailures: UInt64 = 0
    var lastCommitError: String?

    public var publishEndpoint: String { publisher.endpoint }
    /// Held while the service runs: one price-ingest per data directory.
    private let directoryLock: DataDirectoryLock

    public init(context: Context, configuration: PriceIngestConfiguration, logger: Logger) throws {
        self.context = context
        self.configuration = configuration
        self.logger = logger
        directoryLock = try DataDirectoryLock(directory: configuration.dataDirectory, service: "price-ingest")
        // Its replies are large (a retailer's snapshot ~200 KB for 500 stations, a feed's request up
        // to 32 MiB): 5,000 snapshot requests never read took it from 41 MB to 929 MB (QA). Its
        // clients (fuelboard, replicas resyncing) mostly ask one thing at a time.
        server = try ReplyServer(name: "price-ingest", context: context, bind: configuration.endpoint,
                                 logger: logger, maxRequestBytes: configuration.maxRequestBytes,
                                 queuedPerClient: Self.queuedPerClient, requestsReadAhead: Self.requestsReadAhead)
        // A stop finishes the feeds in hand (parsed off the loop, then committed and acknowledged):
        // a rolling restart failed a client's ingest with "the connection closed" (QA). Within the
        // units' 20 s stop timeout, with the watchdog's 3 s after it.
        try server.drainOnStop(grace: Self.stopGrace)
        publisher = try PricePublisher(context: context, bind: configuration.publishEndpoint, logger: logger)
        // The store is made only once the endpoints are taken: a start that cannot bind leaves none behind.
        store = try StationStore(directory: configuration.dataDirectory)
        if let rolledBack = store.rolledBack {
            logger.warning("store is older than this directory served; replicas will reload everything",
                           metadata: ["served": "\(rolledBack.served)", "found": "\(rolledBack.found)",
                                      "why": "a copy put back from a backup? it now has a new store id"])
        }
        if let replaced = store.replaced {
            logger.warning("store is not the one this directory served; its feeds must be ingested again",
                           metadata: ["served": replaced.storeID, "servedVersion": "\(replaced.version)",
                                      "store": store.storeID, "version": "\(store.version)",
                                      "why": "the database file was deleted, emptied or replaced"])
        }
        head = try store.headFingerprint()
        fetchResults = try Socket(context, .pull)
        fetchResultsEndpoint = try fetchResults.bind("inproc://price-ingest-fetch-\(UUID().uuidString)")
        parseResults = try Socket(context, .pull)
        parseQueue = try FeedParseQueue(context: context, socket: parseResults)
        registerHandlers()
        server.watch(fetchResults) { [unowned self] frames in self.fetchCompleted(frames) }
        server.watch(parseResults) { [unowned self] frames in self.parseCompleted(frames) }
        server.every(configuration.heartbeatInterval) { [unowned self] in
            self.publishHeartbeat()
            self.refusalLines.flush(logging: self.logger)  // a flood that stopped: its last count
            self.missingFeedLines.flush(logging: self.logger)
        }
        if !configuration.feeds.entries.isEmpty {
            server.after(.zero) { [unowned self] in self.pollFeeds() }
            server.every(configuration.pollInterval) { [unowned self] in self.pollFeeds() }
        }
        server.statsDetails = { [unowned self] in self.statsDetails() }
        logger.info("store open", metadata: ["version": "\(store.version)", "stations": "\((try? store.stationCount) ?? 0)"])
    }

    private func registerHandlers() {
        server.on(MessageType.ingestFeed.rawValue) { [unowned self] request in self.handleIngest(request) }
        server.on(.ingestSnapshot, SnapshotRequest.self) { [unowned self] body, _ in
            let reply = try self.snapshot(body)
            // A replica serves nothing until it hears this publisher: asked for the snapshot index,
            // it hears a heartbeat now, not up to a second later while lookups are refused.
            if body.retailer == nil { self.server.after(.zero) { self.publishHeartbeat() } }
            return reply
        }
        server.on(.ingestStatus, EmptyBody.self) { [unowned self] _, _ in try self.store.feeds() }
        server.on(.ingestRemove, RemoveRetailerRequest.self) { [unowned self] body, request in
            try self.remove(body, requestID: request.logID)
        }
        // A fetch still waiting on its URL when a stop's grace ends is told so, not left to "the
        // connection closed": nothing of it was stored.
        server.whenGraceEnds = { [unowned self] in
            for responder in self.pending.values {
                responder.fail(.unavailable("price-ingest is stopping and the fetch did not finish in "
                    + "\(ServiceMain.secondsText(Self.stopGrace)); nothing was stored: send it again once it is back"))
            }
            self.pending.removeAll()
        }
    }

    // MARK: - ingest.feed

    private func handleIngest(_ request: IncomingRequest) -> ReplyServer.Outcome {
        let body: InlineIngestBody
        let retailer: String
        do {
            body = try InlineIngestBody(request)
            retailer = try RetailerName.slug(body.retailer)
        } catch let error as FeedError {
            return request.reply(error: error.serviceError)
        } catch {
            return request.reply(error: ServiceError.from(error))
        }
        switch (body.feed, body.url) {
        case (let data?, nil):
            let (outcome, responder) = request.deferReply()
            ingest(IngestJob(data: data, retailer: retailer, source: nil, requestID: request.logID, polled: false,
                             fetchedAt: Date(), responder: responder))
            return outcome
        case (nil, let url?):
            if let problem = FeedFetcher.problem(with: url) { return request.reply(error: .badRequest(problem)) }
            let (outcome, responder) = request.deferReply()
            let ticket = nextTicket
            nextTicket += 1
            pending[ticket] = responder
            startFetch(retailer: retailer, url: url, ticket: ticket)
            return outcome
        default:
            return request.reply(error: .badRequest("ingest.feed needs exactly one of \"feed\" or \"url\""))
        }
    }

    // MARK: - Fetching

    private func startFetch(retailer: String, url: String, ticket: UInt64?) {
        let fetcher = configuration.fetcher
        let endpoint = fetchResultsEndpoint
        let context = context
        let key = "\(retailer) \(url)"
        if ticket == nil && fetchesInFlight.contains(key) { return }
        fetchesInFlight.insert(key)
        (ticket == nil ? polledFetches : requestedQueue(for: url)).addOperation { @Sendable in
            let result = FetchResultMessage(ticket: ticket, retailer: retailer, url: url,
                                            outcome: Result { () throws(FeedFetcher.Failure) -> Data in
                                                try fetcher.fetch(url)
                                            }.mapError { FetchResultMessage.FetchFailure(description: $0.description,
                                                                                         code: $0.code) })
            guard let socket = try? Socket(context, .push) else { return }
            socket.linger = .seconds(1)
            try? socket.connect(endpoint)
            try? socket.send(result.frames())
        }
    }

    /// The queue of requested fetches from `url`'s server, host and port (made on first use, on the
    /// loop thread).
    private func requestedQueue(for url: String) -> OperationQueue {
        let parsed = URL(string: url)
        let host = "\(parsed?.host?.lowercased() ?? ""):\(parsed?.port.map(String.init) ?? parsed?.scheme ?? "")"
        if let queue = requestedFetches[host] { return queue }
        let queue = Self.fetchQueue("requested.\(host.prefix(60))", concurrent: 2)
        requestedFetches[host] = queue
        return queue
    }

    private func fetchCompleted(_ frames: [Data]) {
        guard let message = FetchResultMessage(frames: frames) else { return }
        fetchesInFlight.remove("\(message.retailer) \(message.url)")
        let responder = message.ticket.flatMap { pending.removeValue(forKey: $0) }
        // A requested fetch already answered (told at a stop that it did not finish): not stored.
        if message.ticket != nil, responder == nil { return }
        let source = SourceText.shown(message.url)
        switch message.outcome {
        case .success(let data):
            if responder == nil, isUnchangedPoll(data, retailer: message.retailer, source: source) { return }
            // A poll's older copy of the stored feed changes nothing; a request's URL is applied.
            ingest(IngestJob(data: data, retailer: message.retailer, source: source,
                             requestID: message.ticket.map { "fetch-\($0)" } ?? "poll",
                             polled: message.ticket == nil, fetchedAt: Date(), responder: responder))
        case .failure(let failure):
            let description = failure.description
            recordFailure(retailer: message.retailer, message: description, source: source, polled: message.ticket == nil)
            if let responder {
                // One line for the event, the request's own (at most 20 a second: a client looping
                // on bad URLs wrote a line per request here besides it). A request's not_found
                // writes none (a user nobody knows is routine elsewhere): a feed gone is not.
                if failure.code == .notFound, missingFeedLines.admit(logging: logger) {
                    logger.info("requested feed not found", metadata: ["retailer": message.retailer,
                                                                       "reason": description])
                }
                responder.fail(ServiceError(failure.code, "could not fetch the \(message.retailer) feed: \(description)"))
            } else {
                logger.warning("fetch failed", metadata: ["retailer": message.retailer, "source": source,
                                                          "reason": description])
            }
        }
    }

    private func pollFeeds() {
        logger.info("polling feeds", metadata: ["count": "\(configuration.feeds.entries.count)"])
        for entry in configuration.feeds.entries {
            startFetch(retailer: entry.slug, url: entry.url, ticket: nil)
        }
    }

    // MARK: - Snapshots and status

    /// The current version and store on the publisher, for replicas to check theirs against.
    private func publishHeartbeat() {
        publisher.heartbeat(version: store.version, store: store.storeID, head: head)
    }

    private func snapshot(_ request: SnapshotRequest) throws -> SnapshotReply {
        let version = store.version
        if let retailer = request.retailer {
            let feeds = try store.feeds()
            guard let feed = feeds.first(where: { $0.retailer == retailer }), let feedVersion = feed.version,
                  let updated = feed.updated
            else {
                throw ServiceError.notFound("no stations stored for retailer '\(retailer.prefix(60))'")
            }
            let stations = try store.stations(retailer: retailer)
            return SnapshotReply(version: version, state: RetailerState(version: feedVersion, retailer: retailer,
                                                                        updated: updated, stations: stations,
                                                                        fingerprint: try store.contentHash(of: retailer)),
                                 store: store.storeID)
        }
        let fingerprints = try store.fingerprints()
        let entries = try store.feeds().compactMap { feed -> SnapshotReply.Entry? in
            guard let feedVersion = feed.version else { return nil }
            return SnapshotReply.Entry(retailer: feed.retailer, version: feedVersion, stationCount: feed.stationCount,
                                       fingerprint: fingerprints[feed.retailer])
        }
        return SnapshotReply(version: version, retailers: entries, store: store.storeID, head: head)
    }

    private func statsDetails() -> [String: JSONValue] {
        let now = Date()
        let feeds = (try? store.feeds()) ?? []
        let polled = Set(configuration.feeds.entries.map(\.slug))
        let rows: [JSONValue] = feeds.map { feed in
            var row: [String: JSONValue] = [
                "retailer": .string(feed.retailer),
                "stations": .number(Double(feed.stationCount)),
                // Its latest fetch failed (or none ever worked): alertable where no age is.
                "failing": .bool(feed.isFailing),
                // In this process's --feeds list: a failing feed nobody polls stays failing until
                // someone ingests it again, and an alert on it would never clear (QA).
                "polled": .bool(polled.contains(feed.retailer)),
            ]
            if let version = feed.version { row["version"] = .number(Double(version)) }
            if let success = feed.lastSuccessAt { row["lastSuccess"] = .string(JSONCoding.formatISO8601(success)) }
            if let failure = feed.lastErrorAt { row["lastErrorAt"] = .string(JSONCoding.formatISO8601(failure)) }
            if let error = feed.lastError { row["lastError"] = .string(error) }
            if let updated = feed.updated {
                row["updated"] = .string(JSONCoding.formatISO8601(updated))
                row["feedAgeHours"] = .number((now.timeIntervalSince(updated) / 360).rounded() / 10)
            }
            if let source = feed.source { row["source"] = .string(source) }
            return .object(row)
        }
        return [
            "version": .number(Double(store.version)),
            "store": .string(store.storeID),
            "stations": .number(Double((try? store.stationCount) ?? 0)),
            "feeds": .array(rows),
            "fetchesInFlight": .number(Double(fetchesInFlight.count)),
            // Feeds taken (inline or fetched) and waiting for their parse or in it.
            "feedsParsing": .number(Double(parsing.count)),
            "feedsParsingBytes": .number(Double(parsingBytes)),
            "feedsRefusedWaiting": .number(Double(feedsRefusedWaiting)),
            "commitFailures": .number(Double(commitFailures)),
            // Deleted or replaced while running: ingests are refused until a restart.
            "storeFileGone": .bool(!store.isStillItsFile),
            "lastCommitError": lastCommitError.map(JSONValue.string) ?? .null,
        ]
    }
}
