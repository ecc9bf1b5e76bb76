import Foundation
import Messages
import ServiceKit
import ZeroMQ

/// A non-blocking request-reply channel to one backend service, driven by the router's loop.
///
/// One DEALER socket per replica (`BackendChannel+Replicas` picks the replica of each frame);
/// every call carries its own id and deadline and waits in a table of pending calls. Replies are
/// matched by id (late or unknown ones are dropped); `expire` completes calls past their deadline
/// with `timeout`. A socket only queues to completed connections
/// (`immediate`) with a small send limit, so nothing piles up for a backend that is down: a call
/// the socket refuses waits here for at most `sendGrace` (a connection still being made at
/// start-up or after a restart), retried every tick, then fails with `unavailable`; from then on
/// the backend counts as down and refused calls fail at once, until a send goes through. After
/// several timeouts in a row the connection is dropped and reopened (Lazy Pirate), which
/// discards whatever was queued to a hung peer. ZeroMQ heartbeats close a connection whose peer
/// has gone silent (a cut link, a stopped process), so calls stop going to it.
///
/// Calls made during one turn of the router's loop wait in an outbox until the turn ends
/// (`sendOutbox`), or until a batch's worth is waiting; two or more travel as one `sys.batch`
/// frame, so a busy router pays the per-message costs (its own, ZeroMQ's, the backend's) once per
/// turn and backend, not per call.
/// A backend that does not know `sys.batch` is sent each call on its own for a minute, then
/// tried again (`batchRetryInterval`).
///
/// With several replicas, a call marked retryable (a read such as a lookup) is sent again once,
/// to another replica, when the first answer is `unavailable` (a replica still loading) or none
/// has come by half its time; a replica that answered `unavailable` is passed over for a while.
/// With one there is no retry: it would only double the load of a backend that is already slow.
final class BackendChannel {
    let name: String
    let endpoint: String
    /// The replicas' endpoints and sockets, in the order the endpoint lists them.
    let replicaEndpoints: [String]
    let sockets: [Socket]
    /// Consecutive timeouts that make the channel reconnect.
    static let reconnectAfterTimeouts = 3
    /// How long a call the socket refuses (no connection yet) may wait to be sent.
    static let sendGrace: Duration = .milliseconds(250)
    /// Calls waiting to be sent, at most; more fail at once.
    static let maxUnsent = 10_000
    /// How often a silent connection is probed, and after how long without traffic it is closed.
    static let heartbeatInterval: Duration = .milliseconds(500)
    static let heartbeatTimeout: Duration = .milliseconds(1500)

    // State below without `private` is shared with the reply side (`BackendChannel+Replies`) and
    // the clock side (`BackendChannel+Expiry`); nothing outside the channel writes it.

    struct Pending {
        let deadline: ContinuousClock.Instant
        let type: String
        let complete: (Result<ReplyEnvelope, ServiceError>) -> Void
        /// The frame, kept for a retry.
        var payload: Data
        /// When to send it again if no answer has come (the deadline when no retry is left).
        var retryAt: ContinuousClock.Instant
        var retriesLeft: Int
        /// The replica it was last sent to (a retry goes to another).
        var replica: Int?
    }

    /// Calls by number (their ids on the wire: `callIDs`).
    var pending: [UInt64: Pending] = [:]
    /// Calls made in this turn of the loop, in order, to send when it ends.
    private var outbox: [UInt64] = []
    /// Batches sent and not yet answered: the calls each carries.
    var batches: [UInt64: [UInt64]] = [:]
    /// When the backend last answered a batch `unknown_type` (nil: never).
    var batchesRefusedAt: ContinuousClock.Instant?
    /// How long a backend that refused a batch is sent calls one by one before it is tried
    /// again (it may have been upgraded since).
    static let batchRetryInterval: Duration = .seconds(60)
    /// Calls the socket refused so far, oldest first, with when to give up sending them.
    var unsent: [(id: UInt64, payload: Data, giveUpAt: ContinuousClock.Instant)] = []
    /// A call gave up unsent and nothing has been sent since.
    var isDown = false {
        didSet { if isDown != oldValue { onDownChanged?(isDown) } }
    }
    /// When a down backend is next probed (`probeIfDown`), and the id its pings carry.
    var nextProbeAt = ContinuousClock.now
    static let probeInterval: Duration = .seconds(1)
    var probeID: String { callIDs.prefix + "-probe" }
    /// Told when the backend goes down (true) or comes back (false), for the log.
    var onDownChanged: ((Bool) -> Void)?
    /// Called with a call's type, its id on the wire (the id the backend's own log gives it) and
    /// the error a backend answered it with, when that error is no usual answer (not `not_found`,
    /// not `unavailable`): a wrong endpoint (`unknown_type`), a full disk (`internal`)... The asks
    /// it fails say only "I can't reach prices right now".
    var onRefused: ((_ type: String, _ callID: String, ServiceError) -> Void)?
    private var counter: UInt64 = 0
    let callIDs = CallIDs()
    var consecutiveTimeouts = 0
    /// Runs a closure on the loop's next turn (completions never run inside `send`).
    private let schedule: (@escaping () -> Void) -> Void

    // Counters for `sys.stats`.
    var timeouts: UInt64 = 0
    var unavailable: UInt64 = 0
    var reconnects: UInt64 = 0
    var lateReplies: UInt64 = 0
    var retries: UInt64 = 0
    private(set) var batchesSent: UInt64 = 0
    private(set) var callsBatched: UInt64 = 0
    /// More than one endpoint: a retry can reach another replica.
    private let hasReplicas: Bool
    /// The replica to try first for the next frame (they take turns).
    var nextReplica = 0
    /// Until when each replica is passed over (it answered `unavailable`: still loading).
    var passedOverUntil: [ContinuousClock.Instant?]

    init(name: String, context: Context, endpoint: String,
         schedule: @escaping (@escaping () -> Void) -> Void) throws(ZMQError) {
        self.name = name
        self.endpoint = endpoint
        self.schedule = schedule
        replicaEndpoints = Self.replicas(endpoint)
        var sockets: [Socket] = []
        for replica in replicaEndpoints {
            let socket = try Socket(context, .dealer)
            socket.linger = .zero
            socket.immediate = true
            socket.sendHighWaterMark = 1000
            socket.receiveHighWaterMark = 100_000
            socket.maxMessageSize = 4 << 20
            socket.reconnectInterval = .milliseconds(100)
            socket.setHeartbeat(interval: Self.heartbeatInterval, timeout: Self.heartbeatTimeout)
            try socket.connect(replica)
            sockets.append(socket)
        }
        self.sockets = sockets
        hasReplicas = sockets.count > 1
        passedOverUntil = Array(repeating: nil, count: sockets.count)
    }

    /// The endpoints of a backend: one, or several replicas separated by commas. A socket only
    /// takes frames while its connection is up, so a replica that dies is routed around.
    static func replicas(_ endpoint: String) -> [String] {
        Endpoint.list(endpoint)
    }

    /// Calls waiting for a reply.
    var inFlight: Int { pending.count }

    /// Makes a call, sent when the loop's turn ends (`sendOutbox`) or at once when it fills a
    /// batch; `complete` later receives the reply or an error. A `retryable` call (one that
    /// changes nothing) is sent once more on `unavailable` or silence (see the type's notes).
    func send<Body: Encodable>(_ type: MessageType, _ body: Body, deadline: ContinuousClock.Instant,
                               retryable: Bool = false,
                               complete: @escaping (Result<ReplyEnvelope, ServiceError>) -> Void) {
        counter &+= 1
        let id = counter
        let payload: Data
        do {
            payload = try RequestFrame.make(idPrefix: callIDs.prefix, number: id, type: type.rawValue, body: body)
        } catch {
            schedule { complete(.failure(ServiceError(.internal, "\(type.rawValue) could not be encoded"))) }
            return
        }
        let now = ContinuousClock.now
        let retries = retryable && hasReplicas ? 1 : 0
        pending[id] = Pending(deadline: deadline, type: type.rawValue, complete: complete, payload: payload,
                              retryAt: retries > 0 ? now + (deadline - now) / 2 : deadline, retriesLeft: retries)
        outbox.append(id)
        // A full batch need not wait for the end of a long turn.
        if outbox.count >= Self.maxBatchCalls { sendOutbox() }
    }

    /// Whether calls are sent in batches: unless the backend refused one in the last minute.
    var acceptsBatches: Bool {
        batchesRefusedAt.map { ContinuousClock.now - $0 >= Self.batchRetryInterval } ?? true
    }

    /// Calls in one batch, at most, and the bytes of their frames past which a batch is closed
    /// (well under the 64 KiB a backend takes in one request).
    static let maxBatchCalls = 16
    static let maxBatchBytes = 32 << 10

    /// Sends the calls made since the last turn of the loop: one alone, several in batches.
    func sendOutbox() {
        guard !outbox.isEmpty else { return }
        let ids = outbox
        outbox.removeAll(keepingCapacity: true)
        var start = 0
        while start < ids.count {
            var end = start + 1, bytes = pending[ids[start]]?.payload.count ?? 0
            while end < ids.count, end - start < Self.maxBatchCalls {
                bytes += pending[ids[end]]?.payload.count ?? 0
                if bytes > Self.maxBatchBytes { break }
                end += 1
            }
            send(ids[start..<end])
            start = end
        }
    }

    /// Sends calls of the outbox: in one batch when there are several and the backend takes it.
    private func send(_ ids: ArraySlice<UInt64>) {
        if ids.count > 1, acceptsBatches, unsent.isEmpty, let (batchID, frame) = batchFrame(ids),
           let replica = sendToReplica(frame) {
            isDown = false
            if hasReplicas { for id in ids { pending[id]?.replica = replica } }
            batches[batchID] = Array(ids)
            batchesSent += 1
            callsBatched += UInt64(ids.count)
            return
        }
        for id in ids { sendAlone(id) }
    }

    /// One `sys.batch` frame carrying the calls' frames as they are (nil when one has gone).
    private func batchFrame(_ ids: ArraySlice<UInt64>) -> (UInt64, Data)? {
        var payloads: [Data] = []
        payloads.reserveCapacity(ids.count)
        for id in ids {
            guard let call = pending[id] else { return nil }
            payloads.append(call.payload)
        }
        counter &+= 1
        let batchID = counter
        let head = Array(#"{"v":\#(wireVersion),"id":"\#(callIDs.prefix)-b\#(batchID)","type":"sys.batch","body":{"requests":["#.utf8)
        let tail = Array("]}}".utf8)
        let size = payloads.reduce(head.count + tail.count + payloads.count - 1) { $0 + $1.count }
        // One allocation, each part copied once (Data.append per part cost more than the copies).
        var frame = Data(count: size)
        frame.withUnsafeMutableBytes { (out: UnsafeMutableRawBufferPointer) in
            var at = 0
            func put(_ bytes: UnsafeRawBufferPointer) {
                guard let base = bytes.baseAddress, bytes.count > 0 else { return }
                (out.baseAddress! + at).copyMemory(from: base, byteCount: bytes.count)
                at += bytes.count
            }
            head.withUnsafeBytes(put)
            for (index, payload) in payloads.enumerated() {
                if index > 0 { out[at] = UInt8(ascii: ","); at += 1 }
                payload.withUnsafeBytes(put)
            }
            tail.withUnsafeBytes(put)
        }
        return (batchID, frame)
    }

    /// Sends one call by itself; one the socket refuses waits (see the type's notes) or fails.
    func sendAlone(_ id: UInt64) {
        guard let call = pending[id] else { return }
        if unsent.isEmpty, let replica = sendToReplica(call.payload) {
            isDown = false
            if hasReplicas { pending[id]?.replica = replica }
            return
        }
        guard !isDown, unsent.count < Self.maxUnsent else {
            pending[id] = nil
            unavailable += 1
            let name = name
            schedule { call.complete(.failure(.unavailable("\(name) is not reachable"))) }
            return
        }
        unsent.append((id, call.payload, min(call.deadline, ContinuousClock.now + Self.sendGrace)))
        flush()
    }

    /// Sends waiting calls in order until the socket refuses one.
    func flush() {
        var sent = 0
        for call in unsent {
            guard pending[call.id] != nil else {
                sent += 1
                continue
            }
            guard let replica = sendToReplica(call.payload) else { break }
            if hasReplicas { pending[call.id]?.replica = replica }
            sent += 1
            isDown = false
        }
        unsent.removeFirst(sent)
    }

    /// Sends a request and decodes the reply body as `Out`; error replies arrive as failures.
    func call<Body: Encodable, Out: Decodable>(_ type: MessageType, _ body: Body, as: Out.Type,
                                               deadline: ContinuousClock.Instant, retryable: Bool = false,
                                               _ done: @escaping (Result<Out, ServiceError>) -> Void) {
        let name = name
        send(type, body, deadline: deadline, retryable: retryable) { result in
            done(result.flatMap { reply in reply.result(as: Out.self, from: name) })
        }
    }
}
