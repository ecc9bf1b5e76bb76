import Foundation
import Messages
import ZeroMQ

/// A blocking request-reply client with a per-request deadline, retries and reconnect
/// (the zguide's Lazy Pirate), for the CLI, tests and service-to-service calls off the hot loop.
///
/// It uses a DEALER socket and matches replies by request id, so a late reply to an abandoned
/// attempt is recognised and dropped. After a timeout the socket is closed and reopened (a fresh
/// connection) before the next attempt. When every attempt times out the call throws
/// `ServiceError(.unavailable)`. Error replies from the server are thrown as they came.
/// With one endpoint, a connection that drops while a reply is awaited ends the attempt at
/// once (the service stopped, crashed or refused the frame): nothing would answer it.
public final class RequestClient {
    public let endpoint: String
    /// How long one attempt waits for its reply.
    public var timeout: Duration
    /// How many more attempts after the first one times out.
    public var retries: Int
    private let context: Context
    private var socket: Socket
    /// Watches the one connection for drops; nil with several endpoints (a drop of one of them
    /// need not be where the request went).
    private var monitor: SocketMonitor?
    private var counter: UInt64 = 0
    private var reconnects = 0
    private let idPrefix: String

    public init(context: Context, endpoint: String, timeout: Duration = .seconds(2), retries: Int = 2)
        throws(ZMQError)
    {
        self.context = context
        self.endpoint = endpoint
        self.timeout = timeout
        self.retries = retries
        self.idPrefix = String(UInt32.random(in: 0...UInt32.max), radix: 36)
        socket = try Self.openSocket(context, endpoint)
        monitor = try Self.openMonitor(socket, endpoint)
    }

    private static func openMonitor(_ socket: Socket, _ endpoint: String) throws(ZMQError) -> SocketMonitor? {
        Endpoint.list(endpoint).count > 1 ? nil : try SocketMonitor(watching: socket)
    }

    /// One DEALER connected to every endpoint of a comma-separated list (several routers in
    /// front, say): requests go round-robin to the connected ones only (`immediate`), so one that
    /// is down is skipped, and a retry after a timeout goes to the next.
    /// After a reconnect the list is rotated (`startingAt`), so the retry of a call that got no
    /// answer goes to the next endpoint first.
    private static func openSocket(_ context: Context, _ endpoint: String, startingAt offset: Int = 0)
        throws(ZMQError) -> Socket
    {
        let socket = try Socket(context, .dealer)
        socket.linger = .zero
        socket.maxMessageSize = 1 << 30
        var endpoints = Endpoint.list(endpoint)
        if endpoints.count > 1 {
            socket.immediate = true
            let first = offset % endpoints.count
            endpoints = Array(endpoints[first...] + endpoints[..<first])
        }
        for one in endpoints.isEmpty ? [endpoint] : endpoints { try socket.connect(one) }
        return socket
    }

    /// Sends `type` with `body` and decodes the reply body as `Out`.
    public func call<Body: Encodable, Out: Decodable>(
        _ type: String, _ body: Body, as: Out.Type = Out.self, timeout: Duration? = nil, retries: Int? = nil
    ) throws(ServiceError) -> Out {
        let data = try callRaw(type, body, timeout: timeout, retries: retries)
        if let body = readSuccessBody(Out.self, from: data) { return body }
        do {
            let reply = try JSONCoding.makeDecoder().decode(DecodableReply<Out>.self, from: data)
            if reply.ok, let body = reply.body { return body }
            throw reply.error ?? ServiceError(.internal, "reply had neither body nor error")
        } catch let error as ServiceError {
            throw error
        } catch {
            throw ServiceError(.internal, "unreadable reply from \(endpoint): \(ServiceError.describe(error))")
        }
    }

    public func call<Body: Encodable, Out: Decodable>(
        _ type: MessageType, _ body: Body, as: Out.Type = Out.self, timeout: Duration? = nil, retries: Int? = nil
    ) throws(ServiceError) -> Out {
        try call(type.rawValue, body, as: Out.self, timeout: timeout, retries: retries)
    }

    /// Sends a request and returns the whole reply JSON (matched by id), without decoding it.
    public func callRaw<Body: Encodable>(_ type: String, _ body: Body, timeout: Duration? = nil,
                                        retries: Int? = nil) throws(ServiceError) -> Data {
        counter += 1
        let id = "\(idPrefix)-\(counter)"
        let payload: Data
        do {
            payload = try JSONCoding.encode(OutgoingRequest(v: wireVersion, id: id, type: type, body: body))
        } catch {
            throw ServiceError(.badRequest, "request could not be encoded: \(error)")
        }
        return try exchange(payload, id: id, timeout: timeout ?? self.timeout, retries: retries ?? self.retries)
    }

    /// Sends raw bytes as the request frame (for tests of garbage input) and returns the reply JSON.
    public func sendRaw(_ payload: Data, timeout: Duration? = nil) throws(ServiceError) -> Data {
        try exchange(payload, id: nil, timeout: timeout ?? self.timeout, retries: 0)
    }

    private func exchange(_ payload: Data, id: String?, timeout: Duration, retries: Int) throws(ServiceError) -> Data {
        var dropped = false
        for attempt in 0...max(0, retries) {
            do {
                let deadline = ContinuousClock.now + timeout
                // With several endpoints the socket only sends to a completed connection, so a
                // send may wait for one: never longer than the attempt.
                socket.sendTimeout = max(timeout, .milliseconds(1))
                _ = monitor?.takeDisconnects()  // drops before this request are not its loss
                try socket.send([Data(), payload])
                switch try awaitReply(id: id, deadline: deadline) {
                case .reply(let reply): return reply
                case .timedOut: dropped = false
                case .connectionDropped: dropped = true
                }
            } catch where error.isTerminated {
                throw ServiceError(.unavailable, "shutting down")
            } catch {
                // Any other transport error: treat like a lost reply and reconnect.
            }
            if attempt < retries { try reconnect() }
        }
        try reconnect()
        if dropped {
            throw ServiceError(.unavailable, "the connection to \(endpoint) closed while waiting for the reply "
                + "(the service stopped, restarted or refused the request)")
        }
        throw ServiceError(.unavailable, "no reply from \(endpoint) within \(timeout) after \(retries + 1) attempt(s)")
    }

    private enum Awaited {
        case reply(Data)
        case timedOut
        /// The connection closed after the request was sent: no reply will come on it.
        case connectionDropped
    }

    /// Waits for the reply whose id is `id` (any reply when `id` is nil), the deadline, or the
    /// connection dropping.
    private func awaitReply(id: String?, deadline: ContinuousClock.Instant) throws(ZMQError) -> Awaited {
        let poller = Poller()
        let replies = poller.add(socket)
        let drops = monitor.map { poller.add($0.events) }
        while true {
            let remaining = deadline - .now
            guard remaining > .zero else { return .timedOut }
            let ready = try poller.poll(timeout: max(remaining, .milliseconds(1)))
            if ready.contains(replies) {
                let frames: [Data]
                do {
                    frames = try socket.receive(dontWait: true)
                } catch where error.isTimeout {
                    continue
                }
                guard let payload = frames.last else { continue }
                guard let id else { return .reply(payload) }
                if let head = try? JSONCoding.makeDecoder().decode(RequestHead.self, from: payload) {
                    if head.id == .string(id) { return .reply(payload) }
                    // The service could not read the request's id (one over its size limit is
                    // refused unread): with one request out at a time, the refusal is this one's.
                    // Dropped, it left `fuelboard ingest` waiting 120 s for nothing (QA).
                    if head.id == nil || head.id == .null { return .reply(payload) }
                }
                // A late reply to an earlier attempt: drop it and keep waiting.
            } else if let drops, ready.contains(drops), monitor?.takeDisconnects() == true {
                return .connectionDropped
            }
        }
    }

    private func reconnect() throws(ServiceError) {
        socket.close()
        monitor = nil
        reconnects += 1
        do {
            socket = try Self.openSocket(context, endpoint, startingAt: reconnects)
            monitor = try Self.openMonitor(socket, endpoint)
        } catch {
            throw ServiceError(.unavailable, "cannot reconnect to \(endpoint): \(error)")
        }
    }
}

struct OutgoingRequest<Body: Encodable>: Encodable {
    let v: Int
    let id: String
    let type: String
    let body: Body
}

extension RequestClient {
    /// The body of a success reply read by hand, when `Out` is `JSONReadable` and the reply is
    /// strict JSON with `"ok": true` (a large snapshot then takes no `JSONDecoder` pass); nil
    /// otherwise, and the caller decodes the whole reply as before.
    private func readSuccessBody<Out: Decodable>(_ type: Out.Type, from data: Data) -> Out? {
        guard Out.self is any JSONReadable.Type, let envelope = ReplyEnvelope(data), envelope.ok else { return nil }
        return try? envelope.result(as: Out.self, from: endpoint).get()
    }
}

struct DecodableReply<Body: Decodable>: Decodable {
    let ok: Bool
    let body: Body?
    let error: ServiceError?
}

extension RequestClient {
    /// Sends a request whose body is already-encoded JSON (a feed file passed through as is,
    /// without decoding and re-encoding it), and returns the whole reply JSON.
    public func callRaw(_ type: String, rawBody: Data, timeout: Duration? = nil, retries: Int? = nil)
        throws(ServiceError) -> Data
    {
        let id = "\(idPrefix)-raw-\(UInt32.random(in: 0...UInt32.max))"
        var payload = Data(#"{"v":\#(wireVersion),"id":"\#(id)","type":"\#(type)","body":"#.utf8)
        payload.append(rawBody)
        payload.append(Data("}".utf8))
        return try exchange(payload, id: id, timeout: timeout ?? self.timeout, retries: retries ?? self.retries)
    }
}
