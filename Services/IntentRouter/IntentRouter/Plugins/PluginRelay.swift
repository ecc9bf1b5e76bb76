import Foundation
import ServiceKit
import Synchronization
import ZeroMQ

/// The plug-in endpoint's ROUTER socket, on a thread of its own, joined to the router's loop by an
/// inproc PAIR.
///
/// It shields the loop from misbehaving services: every peer has a token bucket, and all peers
/// share one, both counting bytes (a flood is cut to a steady rate and the excess dropped), frames
/// that are not `[routing id, (empty,) payload]`
/// are dropped, and messages past `cutOffBytes` never arrive (`maxMessageSize`: libzmq closes the
/// connection). So however a service behaves, the loop reads a bounded stream and keeps answering
/// every other ask.
final class PluginRelay {
    /// The plug-in endpoint as bound (a wildcard port resolved).
    let endpoint: String
    /// The loop's end: `[routing id, payload]` both ways.
    let pipe: Socket
    private let counters: Counters

    /// Tokens one peer may spend at once, and per second after that: a frame costs one per 4 KiB
    /// begun, so a peer sends 5000 small frames a second, or 20 MiB of large ones.
    static let burst = 2000.0
    static let perSecond = 5000.0
    static let bytesPerToken = 4096
    /// Bytes all peers together may send at once, and per second after that: many connections
    /// each within its own rate once brought the loop 1 GB a second of 200 KB frames, every ask
    /// timed out and the queue to the loop held 2.3 GB (hostile QA).
    static let allBurstBytes = 16.0 * 1_048_576
    static let allBytesPerSecond = 16.0 * 1_048_576
    /// The largest frame the protocol allows: the loop refuses a larger one, naming the limit.
    static let maxMessageBytes = 256 << 10
    /// Frames up to this size reach the loop, so a service that overshoots `maxMessageBytes` is
    /// told so; past it libzmq drops the connection, and the service hears nothing.
    static let cutOffBytes = 1 << 20
    /// The middle frame of `[routing id, why, payload]`: a message the relay could not deliver.
    static let undeliverableGone = "undeliverable:gone"
    static let undeliverableFull = "undeliverable:full"

    final class Counters: Sendable {
        let dropped = Atomic<UInt64>(0)
        let malformed = Atomic<UInt64>(0)
        let undeliverable = Atomic<UInt64>(0)
    }

    var dropped: UInt64 { counters.dropped.load(ordering: .relaxed) }
    var malformed: UInt64 { counters.malformed.load(ordering: .relaxed) }
    var undeliverable: UInt64 { counters.undeliverable.load(ordering: .relaxed) }

    init(context: Context, bind: String) throws {
        let inproc = "inproc://fuelboard-plugins-\(UUID().uuidString)"
        pipe = try Socket(context, .pair)
        pipe.sendHighWaterMark = 10_000
        pipe.receiveHighWaterMark = 10_000
        try pipe.bind(inproc)
        let counters = Counters()
        self.counters = counters
        let ready = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<String, ZMQError>?>(nil)
        let thread = Thread {
            Thread.nameCurrent("plugin-relay")
            Self.relay(context: context, bind: bind, inproc: inproc, counters: counters) { result in
                outcome.withLock { $0 = result }
                ready.signal()
            }
        }
        thread.start()
        ready.wait()
        endpoint = try outcome.withLock { $0! }.get()
    }

    /// Sends one frame to a service (from the loop thread).
    func send(to routingID: Data, _ payload: Data) {
        if (try? pipe.send([routingID, payload], dontWait: true)) == nil {
            counters.undeliverable.add(1, ordering: .relaxed)
        }
    }

    // MARK: - The relay thread

    private static func relay(context: Context, bind: String, inproc: String, counters: Counters,
                              started: (Result<String, ZMQError>) -> Void) {
        let router: Socket, pair: Socket
        do {
            router = try Socket(context, .router)
            router.maxMessageSize = cutOffBytes
            router.setRouterMandatory(true)
            router.receiveHighWaterMark = 1000
            router.sendHighWaterMark = 1000
            router.handshakeInterval = .seconds(5)
            let bound = try router.bind(bind)
            pair = try Socket(context, .pair)
            pair.sendHighWaterMark = 10_000
            pair.receiveHighWaterMark = 10_000
            try pair.connect(inproc)
            started(.success(bound))
        } catch {
            started(.failure(error))
            return
        }
        defer {
            router.close()
            pair.close()
        }
        let poller = Poller()
        poller.add(router)
        poller.add(pair)
        var buckets: [Data: TokenBucket] = [:]
        var shared = TokenBucket(capacity: allBurstBytes, perSecond: allBytesPerSecond)
        do {
            while true {
                let readable = try poller.poll(timeout: .seconds(1))
                if readable.contains(0) {
                    for _ in 0 ..< 1000 {
                        guard let frames = try? router.receive(dontWait: true) else { break }
                        inbound(frames, pair: pair, buckets: &buckets, shared: &shared, counters: counters)
                    }
                }
                if readable.contains(1) {
                    for _ in 0 ..< 1000 {
                        guard let frames = try? pair.receive(dontWait: true), frames.count == 2 else { break }
                        do {
                            try router.send(frames, dontWait: true)
                        } catch {
                            // Tell the loop at once, so it can send the request elsewhere.
                            counters.undeliverable.add(1, ordering: .relaxed)
                            let why = Data((error.isHostUnreachable ? undeliverableGone : undeliverableFull).utf8)
                            try? pair.send([frames[0], why, frames[1]], dontWait: true)
                        }
                    }
                }
                if buckets.count > 10_000 { buckets.removeAll() }
            }
        } catch {
            // ETERM: the router is stopping.
        }
    }

    private static func inbound(_ frames: [Data], pair: Socket, buckets: inout [Data: TokenBucket],
                                shared: inout TokenBucket, counters: Counters) {
        guard frames.count >= 2, let payload = frames.last,
              frames.dropFirst().dropLast().allSatisfy(\.isEmpty) else {
            counters.malformed.add(1, ordering: .relaxed)
            return
        }
        let peer = frames[0]
        let now = ContinuousClock.now
        var bucket = buckets[peer] ?? TokenBucket(capacity: burst, perSecond: perSecond, now: now)
        bucket.refill(now)
        shared.refill(now)
        // A token per 4 KiB begun: a flood of large frames is cut to about 20 MiB a second per peer,
        // and all peers' to 16 MiB, before it reaches the loop.
        let cost = Double(max(1, (payload.count + bytesPerToken - 1) / bytesPerToken))
        guard bucket.tokens >= cost, shared.tokens >= Double(payload.count) else {
            buckets[peer] = bucket
            counters.dropped.add(1, ordering: .relaxed)
            return
        }
        bucket.tokens -= cost
        shared.tokens -= Double(payload.count)
        buckets[peer] = bucket
        if (try? pair.send([peer, payload], dontWait: true)) == nil {
            counters.dropped.add(1, ordering: .relaxed)
        }
    }
}

/// Tokens that refill at `perSecond` up to `capacity`, starting full.
struct TokenBucket {
    let capacity: Double
    let perSecond: Double
    var tokens: Double
    private var at: ContinuousClock.Instant

    init(capacity: Double, perSecond: Double, now: ContinuousClock.Instant = .now) {
        self.capacity = capacity
        self.perSecond = perSecond
        tokens = capacity
        at = now
    }

    /// Adds what the time since the last refill earned.
    mutating func refill(_ now: ContinuousClock.Instant) {
        tokens = min(capacity, tokens + (now - at).inSeconds * perSecond)
        at = now
    }
}
