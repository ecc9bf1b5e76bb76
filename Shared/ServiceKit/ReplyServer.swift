import Foundation
import Messages
import ZeroMQ

/// A service's request loop: one ROUTER socket, typed handlers, timers and extra sockets, all on
/// one thread (a single-threaded reactor, as in malamute and the zguide).
///
/// Handlers never see ZeroMQ frames: the server strips the routing envelope, decodes the JSON
/// request, calls the handler, and sends the reply back along the same route. A handler can also
/// answer later (`Responder`), from this same thread, when its work completes elsewhere.
/// `sys.ping`, `sys.stats` and `sys.batch` are built in. `run()` returns when the context is shut down.
public final class ReplyServer {
    public typealias Handler = (IncomingRequest) -> Outcome

    /// What a handler produced.
    public enum Outcome {
        /// The encoded reply JSON and, for an error reply, the error (see `IncomingRequest.reply`).
        case reply([UInt8], ServiceError?)
        /// The handler kept the `Responder` and will answer later.
        case deferred
    }

    public let name: String
    public let endpoint: String
    public var logger: Logger
    public internal(set) var stats = ServiceStats()
    /// Service-specific figures for `sys.stats`.
    public var statsDetails: () -> [String: JSONValue] = { [:] }
    /// Requests larger than this get `too_large` (the socket drops far larger ones outright).
    public let maxRequestBytes: Int

    /// The largest frame read at all (`ZMQ_MAXMSGSIZE`): twice the largest request, at least 2 MiB.
    public static func frameCutOff(maxRequestBytes: Int) -> Int {
        max(maxRequestBytes * 2, 2 << 20)
    }
    /// An oversized request up to this size is still read for its id, which its refusal carries.
    static let tooLargeIdScanBytes = 1 << 20
    /// The request size the query services take (fuel-lookup, location-cache, dialog-renderer,
    /// intent-router): far above any well-formed request of theirs. price-ingest takes whole feeds.
    public static let smallRequestBytes = 64 << 10

    let socket: Socket
    let poller = Poller()
    /// The served types, matched in order (a few per service: a scan beats hashing the type).
    private var routes: [Route] = []
    /// Frames of the request being handled and the strict check's member list, reused from
    /// request to request so that taking a request off the socket allocates neither.
    private var frames: [Data] = []
    private var watchedFrames: [Data] = []
    private var memberStorage: [StrictJSON.Member] = []
    /// The same, for the requests inside a `sys.batch` (while the batch holds `memberStorage`).
    var batchMemberStorage: [StrictJSON.Member] = []
    private var routeStorage: [Data] = []
    private var watched: [(Socket, ([Data]) -> Void)] = []
    var timers: [Timer] = []
    private var deferredStart: [UInt64: (type: String, start: UInt64)] = [:]
    /// Deferred requests answered through their responder before their handler returned (an
    /// answer found at once), with their error: `noteDeferred` counts them instead of waiting for
    /// them. They were waited for for good (a stop waited its whole grace for them).
    private var answeredBeforeNoted: [UInt64: ServiceError?] = [:]
    /// Requests answered later (`Responder`) not answered yet.
    var requestsInFlight: Int { deferredStart.count }
    /// How a stop lets the requests in flight finish (`drainOnStop`); nil: a stop ends at once.
    var drain: Drain?
    private var nextDeferredID: UInt64 = 0
    /// Where `sys.batch` frames are counted (by type only: the requests in them are the requests).
    var batchStatsSlot = -1
    /// Replies held back to be sent together (see `send`).
    var heldReplies: [(route: [Data], reply: [UInt8])] = []
    var repliesThisTurn = 0
    /// "request failed" lines, at most 20 a second (a client looping on bad requests).
    var failureLines = LogThrottle(perSecond: 20, leftOutEvent: "request failures not logged")
    /// "reply not delivered" lines, likewise.
    var undeliveredLines = LogThrottle(perSecond: 20, leftOutEvent: "replies not delivered not logged")
    /// Clients noted as not reading their replies, by routing id, with when (see `sendNow`).
    var clientsNotReading: [Data: UInt64] = [:]
    /// A client noted as not reading that nothing was offered to for this long is forgotten.
    public var notReadingForgottenAfter: Duration = .seconds(60)
    /// What the `unknown_type` reply adds for a type this server does not serve but knows the
    /// right place for (the router: a plug-in's `plugin.register` sent to its ask endpoint).
    public var unknownTypeHints: [String: String] = [:]
    /// Called when a stop's drain grace ends with requests still in flight: the service answers
    /// those it holds (with an error saying it is stopping), rather than leave them unanswered.
    public var whenGraceEnds: (() -> Void)?
    static let maxClientsNotReading = 1024
    /// How long a note lasts at least: a client whose queue filled again within it loses the
    /// reply at once instead of waiting (its queue can seem to have room as buffers grow).
    static let notReadingNoteNanoseconds: UInt64 = 1_000_000_000
    /// Replies that could not be sent: the client gone, or not reading.
    var repliesNotDelivered: UInt64 = 0
    /// Large replies held by libzmq for every client together, and for each (see `sendCounted`).
    let unreadReplies = HeldBytes()
    var unreadRepliesByClient: [Data: HeldBytes] = [:]
    /// A client holding this many bytes of replies it has not read gets no more large ones.
    public var unreadBytesPerClient = defaultUnreadBytesPerClient
    /// All clients together holding this many: no client gets a large reply.
    public var unreadBytesInAll = defaultUnreadBytesInAll
    /// Large replies answered with `unavailable` instead (`sendCounted`).
    var largeRepliesRefused: UInt64 = 0
    /// "large reply refused" lines, at most 5 a second.
    var refusedLines = LogThrottle(perSecond: 5, leftOutEvent: "large replies refused not logged")
    /// Whether a timer will write the counts of lines left out.
    var logFlushDue = false
    /// A turn's first replies go at once; later ones, and deferred ones, in groups of this many.
    static let replyGroup = 16

    private struct Route {
        let type: String
        let utf8: [UInt8]
        var handler: Handler
        /// Where `stats` counts this type.
        let statsSlot: Int
    }

    let context: Context

    /// Requests taken in and replies held for one client at most, by default: past it a client
    /// that does not read its replies loses the newest, and one that sends faster than it is
    /// answered waits. At 100,000 a client that never read took fuel-lookup from 123 MB to 827 MB
    /// (QA); a load test keeps at most this many in flight on one connection.
    public static let defaultQueuedPerClient = 10_000

    /// Binds the ROUTER socket. `endpoint` may use a wildcard port; the `endpoint` property tells
    /// the real one. `queuedPerClient` bounds what one client can make the server hold (a
    /// service with large replies gives a smaller one): it is what one client may have
    /// outstanding, as a burst of that many replies fills the queue before its I/O thread drains it.
    /// `requestsReadAhead` (default the same) bounds the requests read from one connection and not
    /// yet taken: past it the connection is not read (TCP holds the client back; nothing is lost).
    public init(name: String, context: Context, bind endpoint: String, logger: Logger,
                maxRequestBytes: Int = 1 << 20, queuedPerClient: Int = defaultQueuedPerClient,
                requestsReadAhead: Int? = nil) throws(ZMQError) {
        self.name = name
        self.context = context
        self.logger = logger
        self.maxRequestBytes = maxRequestBytes
        socket = try Socket(context, .router)
        // Up to this size an oversized request still gets a `too_large` reply; beyond it libzmq
        // drops the connection (a peer sending that much is not a client). It bounds what each
        // connection can make the service hold while a frame arrives: at 16 MiB, 40 connections
        // each half-way through a frame took dialog-renderer to 630 MB (QA).
        socket.maxMessageSize = Self.frameCutOff(maxRequestBytes: maxRequestBytes)
        socket.setRouterMandatory(true)
        // A client whose queue is full gets its reply if it reads within 100 ms, else loses it. A
        // shorter wait was tried (libzmq likely learns how far a client has read from commands it
        // handles while a send waits): with none, lookups at 50 in flight fell from ~130k/s to 58-99k/s;
        // at 1 ms the router's asks fell to 13-14k/s (bench/run). A client that never reads
        // costs that wait once a second: its replies are offered without waiting meanwhile (sendNow).
        socket.sendTimeout = .milliseconds(100)
        socket.handshakeInterval = .seconds(5)
        socket.sendHighWaterMark = queuedPerClient
        socket.receiveHighWaterMark = requestsReadAhead ?? queuedPerClient
        self.endpoint = try socket.bind(endpoint)
        poller.add(socket)
        on(MessageType.sysPing.rawValue) { [name] request in
            request.reply(PingBody(service: name, version: fuelboardVersion, pid: getpid()))
        }
        on(MessageType.sysStats.rawValue) { [unowned self] request in
            self.forgetQuietNotes()
            // Requests taken and answered later (a group commit, an ask waiting on backends).
            let delivery: [String: JSONValue] = [
                "requestsInFlight": .number(Double(self.requestsInFlight)),
                "repliesNotDelivered": .number(Double(self.repliesNotDelivered)),
                "clientsNotReading": .number(Double(self.clientsNotReading.count)),
                "unreadReplyBytes": .number(Double(self.unreadReplies.bytes)),
                "largeRepliesRefused": .number(Double(self.largeRepliesRefused)),
            ]
            return request.reply(self.stats.snapshot(service: self.name,
                                              extra: self.statsDetails().merging(delivery) { own, _ in own },
                                              now: Self.monotonicNanoseconds()))
        }
        on(MessageType.sysBatch.rawValue) { [unowned self] request in self.handleBatch(request) }
        batchStatsSlot = stats.slot(for: MessageType.sysBatch.rawValue)
    }

    /// Registers a handler for a request type.
    public func on(_ type: String, _ handler: @escaping Handler) {
        if let index = routes.firstIndex(where: { $0.type == type }) {
            routes[index].handler = handler
        } else {
            routes.append(Route(type: type, utf8: Array(type.utf8), handler: handler, statsSlot: stats.slot(for: type)))
        }
    }

    /// Registers a typed handler: the body is decoded (a decode failure is `bad_request`), and
    /// the returned value or thrown `ServiceError` becomes the reply. Inlinable, so the reading
    /// and writing are specialized for the service's own types.
    @inlinable
    public func on<Body: Decodable & Sendable, Out: Encodable>(
        _ type: MessageType, _ bodyType: Body.Type, _ handler: @escaping (Body, IncomingRequest) throws -> Out
    ) {
        on(type.rawValue) { request in
            do {
                let body = try request.decodeBody(Body.self)
                return request.reply(try handler(body, request))
            } catch {
                return request.reply(error: ServiceError.from(error))
            }
        }
    }

    /// Reads from another socket in the same loop (a SUB for updates, a PULL from a worker).
    public func watch(_ other: Socket, _ handler: @escaping ([Data]) -> Void) {
        poller.add(other)
        watched.append((other, handler))
    }

    /// Serves until the context is shut down (returns normally) or the socket fails (throws).
    public func run() throws(ZMQError) {
        logger.info("listening", metadata: ["svc.endpoint": endpoint])
        do {
            while drain?.isOver != true {
                if watched.isEmpty && timers.isEmpty {
                    // Only the socket to wait for: wait in the receive itself (a poll costs a
                    // round of socket-state queries on every wake-up).
                    try drainRequests(waiting: true)
                    endTurn()
                    continue
                }
                let ready = try poller.poll(timeout: nextTimerDelay())
                for index in ready {
                    if index == 0 {
                        try drainRequests(waiting: false)
                    } else {
                        let (other, handler) = watched[index - 1]
                        while try receiveIfReady(other, into: &watchedFrames) { handler(watchedFrames) }
                        watchedFrames.removeAll(keepingCapacity: true)
                    }
                }
                fireDueTimers()
                endTurn()
                checkDrained()
            }
            if requestsInFlight == 0 {
                logger.info("stopping: requests in flight answered")
            } else {
                logger.warning("stopping: grace over with requests unanswered", metadata: ["left": "\(requestsInFlight)"])
            }
        } catch where error.isTerminated {
            // The context was shut down (SIGTERM/SIGINT), wherever the loop was blocked; a second
            // signal during a drain ends it here too, with what it leaves unanswered counted.
            if requestsInFlight > 0 {
                logger.warning("stopping at once: requests in flight unanswered", metadata: ["left": "\(requestsInFlight)"])
            } else {
                logger.info("stopping: shutdown requested")
            }
        }
    }

    /// Takes the next message of `socket` into `frames`; false when none is queued.
    private func receiveIfReady(_ socket: Socket, into frames: inout [Data]) throws(ZMQError) -> Bool {
        do {
            try socket.receive(into: &frames, dontWait: true)
            return true
        } catch where error.isTimeout {
            return false
        }
    }

    /// Runs after each run of messages taken from the socket at once, before the loop waits
    /// again: a service that defers replies until their work is durable (group commit) sends
    /// them here.
    public var afterBatch: (() -> Void)?

    /// Runs at the end of every turn of the loop, after its requests, watched sockets and due
    /// timers, once the turn's held replies are sent: a client that gathers the calls a turn
    /// makes (the router's backends) sends them here. A reply it makes is sent when it returns.
    public var afterTurn: (() -> Void)?

    /// Handles every request already queued (up to 1000), after waiting for the first when
    /// `waiting`, then returns to the loop.
    private func drainRequests(waiting: Bool) throws(ZMQError) {
        var handled = 0
        defer { if handled > 0 { afterBatch?() } }  // also when a receive throws mid-batch
        if waiting {
            try socket.receive(into: &frames)
            handle(frames)
            handled += 1
        }
        while handled < 1000, try receiveIfReady(socket, into: &frames) {
            handle(frames)
            handled += 1
        }
        // A handled request's frames are not held until the next, nor the room a message of
        // many frames needed.
        frames.removeAll(keepingCapacity: frames.capacity <= 64)
        routeStorage.removeAll(keepingCapacity: routeStorage.capacity <= 64)
    }

    private func handle(_ frames: [Data]) {
        let start = Self.monotonicNanoseconds()
        var route: [Data] = []
        swap(&route, &routeStorage)  // lent, like the member list; a deferred request keeps a copy
        defer { swap(&route, &routeStorage) }
        let payload = Self.split(frames, route: &route)
        var request = IncomingRequest(route: route, payload: payload ?? Data(), server: self)
        swap(&request.members, &memberStorage)
        defer {
            swap(&request.members, &memberStorage)
            // Lent storage is kept at an ordinary request's size, not the largest one seen.
            if memberStorage.capacity > 1024 { memberStorage = [] }
        }
        let outcome: Outcome
        if payload == nil {
            outcome = request.reply(error: .badRequest("a request is exactly one frame of JSON after the routing envelope"))
        } else if payload!.count > maxRequestBytes {
            // Its id when the request is JSON and not far over (a client matching replies by id
            // needs it); the check of a frame of many megabytes is not worth its time.
            if payload!.count <= Self.tooLargeIdScanBytes { try? request.decodeHead() }
            outcome = request.reply(error: .init(.tooLarge, "request of \(payload!.count) bytes exceeds \(maxRequestBytes)"))
        } else {
            outcome = dispatch(&request)
        }
        if case .reply(let data, let error) = outcome {
            let ready = Self.monotonicNanoseconds()
            record(request, nanoseconds: ready &- start, error: error, now: ready)
            send(route: route, data)
        } else {
            noteDeferred(request, start: start)
        }
    }

    /// Remembers when a request that will answer later was taken off the socket.
    func noteDeferred(_ request: IncomingRequest, start: UInt64) {
        if !answeredBeforeNoted.isEmpty {
            let answered = answeredBeforeNoted.removeValue(forKey: request.deferredID)
            answeredBeforeNoted.removeAll(keepingCapacity: true)  // only the request just handled can be in it
            if let error = answered {
                let now = Self.monotonicNanoseconds()
                return record(request, nanoseconds: now &- start, error: error, now: now)
            }
        }
        deferredStart[request.deferredID] = (request.type, start)
    }

    func dispatch(_ request: inout IncomingRequest) -> Outcome {
        let decodeError: ServiceError?
        do {
            try request.decodeHead()
            decodeError = nil
        } catch {
            decodeError = error
        }
        guard let index = routeIndex(for: request) else {
            if let text = request.typeTextString { request.type = text }
            let hint = unknownTypeHints[request.type].map { "; " + $0 } ?? ""
            return request.reply(error: decodeError
                                 ?? .init(.unknownType, "unknown request type '\(request.type.prefix(60))'" + hint))
        }
        // A served type with a bad version still counts under its type.
        request.type = routes[index].type
        request.statsSlot = routes[index].statsSlot
        if let decodeError { return request.reply(error: decodeError) }
        if request.batch != nil, request.type == MessageType.sysBatch.rawValue {
            // One level is all a caller needs, and it bounds the work one frame can ask for.
            return request.reply(error: .badRequest("a sys.batch cannot hold another sys.batch"))
        }
        request.deferredID = nextDeferredID
        nextDeferredID &+= 1
        return routes[index].handler(request)
    }

    /// The route serving the request's type, compared byte for byte when the type was written
    /// without escapes (no `String` is built for it).
    private func routeIndex(for request: IncomingRequest) -> Int? {
        guard let text = request.typeText else {
            return request.type.isEmpty ? nil : routes.firstIndex { $0.type == request.type }
        }
        return request.payload.withUnsafeBytes { raw -> Int? in
            guard let base = raw.baseAddress else { return nil }
            let start = base + text.lowerBound
            for index in routes.indices where routes[index].utf8.count == text.count {
                if routes[index].utf8.withUnsafeBytes({ memcmp(start, $0.baseAddress!, text.count) }) == 0 {
                    return index
                }
            }
            return nil
        }
    }

    /// Sends a deferred reply (called through `Responder`).
    func complete(_ request: IncomingRequest, outcome: Outcome) {
        guard case .reply(let data, let error) = outcome else { return }
        let ready = Self.monotonicNanoseconds()
        if let batch = request.batch {
            // A request of a batch: its reply waits for the batch's others, and the reply that
            // completes the batch sends it, once (a second answer is dropped).
            if batch.fill(request.batchIndex, data), batch.isReadyToSend {
                complete(batch.outer, outcome: batch.reply())
            }
        } else {
            hold(route: request.route, data)
        }
        if let started = deferredStart.removeValue(forKey: request.deferredID) {
            record(request, nanoseconds: ready &- started.start, error: error, now: ready)
        } else if request.deferredID == nextDeferredID &- 1 {
            // The request being handled, answered before its handler returned (a second answer to
            // an older one is dropped, as its reply is).
            answeredBeforeNoted[request.deferredID] = error
        }
    }
}
