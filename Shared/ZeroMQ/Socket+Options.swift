import CZeroMQ

/// Typed socket options: durations in milliseconds of `Duration`, counts as `Int`.
extension Socket {
    /// How long a receive may block; nil blocks forever. Expiry surfaces as `ZMQError.isTimeout`.
    public var receiveTimeout: Duration? {
        get { Self.duration(fromMilliseconds: (try? getInt32(ZMQ_RCVTIMEO)) ?? -1) }
        set { try? setInt32(ZMQ_RCVTIMEO, Self.milliseconds(newValue)) }
    }

    /// How long a send may block; nil blocks forever.
    public var sendTimeout: Duration? {
        get { Self.duration(fromMilliseconds: (try? getInt32(ZMQ_SNDTIMEO)) ?? -1) }
        set { try? setInt32(ZMQ_SNDTIMEO, Self.milliseconds(newValue)) }
    }

    /// How long unsent messages are kept after `close()`; zero drops them at once.
    public var linger: Duration? {
        get { Self.duration(fromMilliseconds: (try? getInt32(ZMQ_LINGER)) ?? -1) }
        set { try? setInt32(ZMQ_LINGER, Self.milliseconds(newValue)) }
    }

    /// Queue limit, in messages, for outgoing messages to any single peer.
    public var sendHighWaterMark: Int {
        get { Int((try? getInt32(ZMQ_SNDHWM)) ?? 0) }
        set { try? setInt32(ZMQ_SNDHWM, Int32(clamping: newValue)) }
    }

    /// Queue limit, in messages, for incoming messages from any single peer.
    public var receiveHighWaterMark: Int {
        get { Int((try? getInt32(ZMQ_RCVHWM)) ?? 0) }
        set { try? setInt32(ZMQ_RCVHWM, Int32(clamping: newValue)) }
    }

    /// The kernel's receive buffer of each of the socket's connections, in bytes (`SO_RCVBUF`);
    /// 0 (or less) leaves the system's default, which grows as the connection is read.
    public var kernelReceiveBuffer: Int {
        get { Int((try? getInt32(ZMQ_RCVBUF)) ?? -1) }
        set { try? setInt32(ZMQ_RCVBUF, Int32(clamping: newValue)) }
    }

    /// Largest inbound message accepted; a peer that sends more is disconnected. nil: no limit.
    public var maxMessageSize: Int? {
        get {
            let value = (try? getInt64(ZMQ_MAXMSGSIZE)) ?? -1
            return value < 0 ? nil : Int(value)
        }
        set { try? setInt64(ZMQ_MAXMSGSIZE, Int64(newValue ?? -1)) }
    }

    /// ROUTER: fail with EHOSTUNREACH instead of silently dropping a message to an unknown peer
    /// (libzmq can set the option, not read it back).
    public func setRouterMandatory(_ on: Bool) {
        try? setInt32(ZMQ_ROUTER_MANDATORY, on ? 1 : 0)
    }

    /// Queue messages only to completed connections.
    public var immediate: Bool {
        get { ((try? getInt32(ZMQ_IMMEDIATE)) ?? 0) == 1 }
        set { try? setInt32(ZMQ_IMMEDIATE, newValue ? 1 : 0) }
    }

    /// Close a connection whose ZMTP handshake has not finished within this time.
    public var handshakeInterval: Duration? {
        get { Self.duration(fromMilliseconds: (try? getInt32(ZMQ_HANDSHAKE_IVL)) ?? 0) }
        set { try? setInt32(ZMQ_HANDSHAKE_IVL, Self.milliseconds(newValue, forever: 0)) }
    }

    /// ZMTP heartbeats: send a PING this often and drop the peer after `timeout` without traffic.
    public func setHeartbeat(interval: Duration, timeout: Duration) {
        try? setInt32(ZMQ_HEARTBEAT_IVL, Self.milliseconds(interval))
        try? setInt32(ZMQ_HEARTBEAT_TIMEOUT, Self.milliseconds(timeout))
    }

    /// Reconnect back-off of a connecting socket.
    public var reconnectInterval: Duration {
        get { .milliseconds((try? getInt32(ZMQ_RECONNECT_IVL)) ?? 100) }
        set { try? setInt32(ZMQ_RECONNECT_IVL, Self.milliseconds(newValue)) }
    }

    /// The endpoint a socket last bound to (resolves wildcard ports).
    public var lastEndpoint: String? {
        var buffer = [CChar](repeating: 0, count: 1024)
        var size = buffer.count
        let handle = rawHandle
        let result = buffer.withUnsafeMutableBytes { zmq_getsockopt(handle, ZMQ_LAST_ENDPOINT, $0.baseAddress, &size) }
        guard result == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    // MARK: - Raw access

    func setInt32(_ option: Int32, _ value: Int32) throws(ZMQError) {
        var value = value
        let handle = rawHandle
        _ = try zmqCall("zmq_setsockopt(\(option))") {
            zmq_setsockopt(handle, option, &value, MemoryLayout<Int32>.size)
        }
    }

    func setInt64(_ option: Int32, _ value: Int64) throws(ZMQError) {
        var value = value
        let handle = rawHandle
        _ = try zmqCall("zmq_setsockopt(\(option))") {
            zmq_setsockopt(handle, option, &value, MemoryLayout<Int64>.size)
        }
    }

    func setBytes(_ option: Int32, _ bytes: [UInt8]) throws(ZMQError) {
        let handle = rawHandle
        _ = try zmqCall("zmq_setsockopt(\(option))") {
            bytes.withUnsafeBytes { zmq_setsockopt(handle, option, $0.baseAddress, $0.count) }
        }
    }

    func getInt32(_ option: Int32) throws(ZMQError) -> Int32 {
        var value: Int32 = 0
        var size = MemoryLayout<Int32>.size
        let handle = rawHandle
        _ = try zmqCall("zmq_getsockopt(\(option))") { zmq_getsockopt(handle, option, &value, &size) }
        return value
    }

    func getInt64(_ option: Int32) throws(ZMQError) -> Int64 {
        var value: Int64 = 0
        var size = MemoryLayout<Int64>.size
        let handle = rawHandle
        _ = try zmqCall("zmq_getsockopt(\(option))") { zmq_getsockopt(handle, option, &value, &size) }
        return value
    }

    /// A duration in libzmq's whole milliseconds, rounded up: a wait of 0.4 ms is 1 ms, not 0
    /// (which libzmq takes as "do not wait", so a loop polling until a timer is due would spin
    /// through its last millisecond). Nothing or less is 0; nil is `forever`.
    static func milliseconds(_ duration: Duration?, forever: Int32 = -1) -> Int32 {
        guard let duration else { return forever }
        guard duration > .zero else { return 0 }
        let (seconds, attoseconds) = duration.components
        guard seconds < Int64(Int32.max / 1000) else { return .max }
        let perMillisecond: Int64 = 1_000_000_000_000_000
        let started = attoseconds % perMillisecond == 0 ? 0 : 1
        return Int32(seconds * 1000 + attoseconds / perMillisecond) + Int32(started)
    }

    static func duration(fromMilliseconds value: Int32) -> Duration? {
        value < 0 ? nil : .milliseconds(value)
    }
}
