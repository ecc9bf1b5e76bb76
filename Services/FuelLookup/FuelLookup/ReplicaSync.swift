import Foundation
import Messages
import ServiceKit
import Synchronization
import ZeroMQ

/// Keeps a replica of price-ingest's state and swaps a freshly built index into the holder
/// after every change: the zguide's Clone pattern, client side.
///
/// It subscribes first, then asks for a snapshot (`ingest.snapshot`), so nothing published in
/// between is lost. Every update carries the global version; an update that skips a version, or
/// a heartbeat announcing a version this replica does not have, triggers a resynchronisation
/// from a snapshot. So a replica that starts late, restarts or misses messages catches up by
/// itself. Runs on its own thread; the serving loop never waits for it.
///
/// price-ingest is heard at least once a second (heartbeats). After `silenceLimit` without a word
/// the replica says so (a warning, `inStep: false` in its stats) and resynchronises when it hears
/// price-ingest again; ZMTP heartbeats on the subscription drop a connection to a peer that is gone
/// (a node lost without a TCP reset), so libzmq reconnects. The replica keeps answering from what
/// it holds meanwhile: every answer carries its prices' age. A heartbeat from a different store
/// (`PriceHeartbeat.store`: price-ingest started afresh on an empty volume) also resynchronises,
/// even at the same version, and so does one whose version is ours with another feed stored at it
/// (`PriceHeartbeat.head`: a whole volume put back from an older copy counted on to our version
/// with other prices while this replica was away). A resync fetches every retailer whose version
/// or fingerprint differs.
public final class ReplicaSync {
    /// How long price-ingest may be silent (it sends a heartbeat every second) before the replica
    /// counts as out of step.
    public static let silenceLimit: Duration = .seconds(5)
    private let context: Context
    private let ingestEndpoint: String
    private let publishEndpoint: String
    private let holder: IndexHolder
    private let logger: Logger
    private let status: SyncStatusBox

    /// What `sys.stats` shows about replication.
    public struct SyncStatus: Sendable {
        public var version: UInt64 = 0
        public var synced = false
        public var resyncs = 0
        public var updatesApplied = 0
        public var lastBuildSeconds = 0.0
        public var lastError: String?
        /// When price-ingest was last heard (an update, a heartbeat or a snapshot); nil before.
        public var lastHeard: ContinuousClock.Instant?
        /// Whether price-ingest has been silent for longer than `silenceLimit`.
        public var silent = false

        /// Synchronised, price-ingest heard lately, and no resynchronisation pending.
        public var inStep: Bool { synced && !silent && lastError == nil }
    }

    private var retailers: [String: RetailerState] = [:]
    /// Retailers removed (`ingest.remove`) and the version at which they went: an update of one at or
    /// below it, queued from before, must not bring it back.
    private var removedAt: [String: UInt64] = [:]
    private var version: UInt64 = 0
    /// The fingerprint of the feed stored at `version`, as price-ingest said (`PriceHeartbeat.head`).
    private var head: String?
    /// The store the held state came from (`SnapshotReply.store`); nil before the first snapshot.
    private var store: String?
    /// Why the next resynchronisation is due (the first reason given since the last one); nil when
    /// none is. Logged with it, so two in a row at start say why the second came.
    private var resyncReason: String? = "start"
    private var needsResync: Bool { resyncReason != nil }
    private var lastHeard = ContinuousClock.now
    private var silent = false
    /// Whether anything has come on the subscription since the start. Until it has, the replica
    /// serves nothing and is not synced (not ready): a wrong `--ingest-pub` left one synced, ready
    /// and stale for good. When the silence was last warned of.
    private var heardOnSubscription = false
    private var silenceWarnedAt: ContinuousClock.Instant?
    static let silenceWarningEvery: Duration = .seconds(60)
    private var snapshotFailing = false
    /// Retailers whose snapshot price-ingest could not give at the last resync (a damaged row in its
    /// store), and when to ask again. The others are served meanwhile.
    private var unreadable: [String] = []
    private var retryUnreadableAt: ContinuousClock.Instant?
    static let unreadableRetry: Duration = .seconds(30)

    private init(context: Context, ingest: String, ingestPub: String, holder: IndexHolder, logger: Logger,
                 status: SyncStatusBox) {
        self.context = context
        self.ingestEndpoint = ingest
        self.publishEndpoint = ingestPub
        self.holder = holder
        self.logger = logger
        self.status = status
    }

    /// Starts the sync thread; it runs until the context is shut down. The returned box tells
    /// its status from any thread.
    public static func start(context: Context, ingest: String, ingestPub: String, holder: IndexHolder,
                             logger: Logger) -> SyncStatusBox {
        let status = SyncStatusBox()
        let thread = Thread { @Sendable in
            // Named from inside: only then does Foundation name the OS thread (`top -H`, `ps -L`).
            Thread.nameCurrent("replica-sync")
            ReplicaSync(context: context, ingest: ingest, ingestPub: ingestPub, holder: holder, logger: logger,
                        status: status).run()
        }
        thread.start()
        return status
    }

    /// Runs the loop until the context is shut down. A loop that fails otherwise (a socket error)
    /// is started again a second later with fresh sockets and a resynchronisation; meanwhile the
    /// replica counts as out of step (`lastError`), not in step with an index that no longer moves.
    private func run() {
        while true {
            do {
                try loop()
                return
            } catch where error.isTerminated {
                logger.debug("replica sync stopped")
                return
            } catch {
                logger.error("replica sync failed; starting it again in 1 s", metadata: ["error": "\(error)"])
                status.withLock { $0.lastError = "replica sync failed: \(error)" }
                requestResync("the sync restarted after an error")
                Thread.sleep(forTimeInterval: 1)
            }
        }
    }

    /// The loop: wait for updates (1 s at most), apply them, resync when needed, rebuild.
    private func loop() throws(ZMQError) {
        let subscriber = try Socket(context, .sub)
        subscriber.receiveHighWaterMark = 100_000
        subscriber.maxMessageSize = 1 << 30
        subscriber.setHeartbeat(interval: .seconds(1), timeout: Self.silenceLimit)
        try subscriber.subscribe(PriceTopic.update)
        try subscriber.subscribe(PriceTopic.heartbeat)
        try subscriber.connect(publishEndpoint)
        let client = try RequestClient(context: context, endpoint: ingestEndpoint, timeout: .seconds(10), retries: 0)
        let poller = Poller()
        poller.add(subscriber)
        // The state changed since the index was last built.
        var stale = false
        while true {
            if needsResync, resync(client) { stale = true }
            serveIfHeard(&stale)
            let ready = try poller.poll(timeout: .seconds(1))
            if !ready.isEmpty {
                while let frames = try? subscriber.receive(dontWait: true) {
                    heardOnSubscription = true
                    heard()
                    stale = handle(frames) || stale
                }
            }
            checkSilence()
            if let retryAt = retryUnreadableAt, ContinuousClock.now >= retryAt {
                requestResync("asking again for unreadable retailers")
            }
            if needsResync { stale = resync(client) || stale }
            serveIfHeard(&stale)
        }
    }

    /// Builds the index when the state changed, and says synced once it holds the snapshot's state;
    /// nothing before the publisher is first heard (a heartbeat a second). A snapshot alone, with no
    /// update ever to follow it (a wrong --ingest-pub), would go stale unseen while the replica
    /// looked ready.
    private func serveIfHeard(_ stale: inout Bool) {
        guard heardOnSubscription else { return }
        if stale {
            rebuild()
            stale = false
        }
        if !needsResync && !status.current.synced { status.withLock { $0.synced = true } }
    }

    /// Applies one published message; returns true when the state changed.
    private func handle(_ frames: [Data]) -> Bool {
        guard frames.count == 2 else { return false }
        let topic = String(decoding: frames[0], as: UTF8.self)
        if topic == PriceTopic.heartbeat {
            guard let beat = try? JSONCoding.decode(PriceHeartbeat.self, from: frames[1]) else { return false }
            if beat.version != version {
                requestResync("heartbeat at version \(beat.version), held \(version)")
            } else if beat.store != nil && beat.store != store {
                requestResync("heartbeat from another store")
            } else if beat.head != nil && beat.head != head {
                requestResync("heartbeat with another feed at version \(version)")
            }
            return false
        }
        // A retailer's whole state: read by hand (as the snapshot is), not by JSONDecoder.
        guard topic == PriceTopic.update,
              let update = try? JSONCoding.decode(RetailerState.self, from: frames[1]) else { return false }
        // How far ahead of ours the update is, without `version + 1` (a publisher's UInt64.max trapped).
        let ahead = update.version > version ? update.version - version : 0
        if ahead > 1 { requestResync("missed updates: got version \(update.version), held \(version)") }
        let applied = apply(update)
        if ahead == 1 {
            version = update.version
            head = update.fingerprint
        }
        return applied
    }

    /// Replaces a retailer's state if `state` is newer than what this replica holds.
    private func apply(_ state: RetailerState) -> Bool {
        if let held = retailers[state.retailer], held.version >= state.version { return false }
        if retailers[state.retailer] == nil, let removed = removedAt[state.retailer], removed >= state.version {
            return false
        }
        status.withLock { $0.updatesApplied += 1 }
        // price-ingest publishes a retailer without stations only when it removes it.
        if state.stations.isEmpty {
            removedAt[state.retailer] = state.version
            return retailers.removeValue(forKey: state.retailer) != nil
        }
        removedAt[state.retailer] = nil
        retailers[state.retailer] = state
        return true
    }

    /// Drops `retailer` as removed at `version` (true when it was held).
    private func drop(_ retailer: String, removedAt version: UInt64) -> Bool {
        removedAt[retailer] = version
        return retailers.removeValue(forKey: retailer) != nil
    }

    /// Whether the held state of the entry's retailer is the one the index lists: its version, and
    /// its fingerprint where both are known.
    private func holds(_ entry: SnapshotReply.Entry) -> Bool {
        guard let held = retailers[entry.retailer], held.version == entry.version else { return false }
        return entry.fingerprint == nil || held.fingerprint == entry.fingerprint
    }

    /// Fetches the snapshot index and every retailer whose version or fingerprint differs. Returns
    /// true on change.
    private func resync(_ client: RequestClient) -> Bool {
        do {
            let index = try client.call(MessageType.ingestSnapshot, SnapshotRequest(), as: SnapshotReply.self)
            var changed = false
            if index.store != store, !retailers.isEmpty {
                // Another store (price-ingest started afresh): its versions say nothing about ours.
                logger.warning("price-ingest has another store; reloading everything",
                               metadata: ["store": index.store ?? "-", "was": store ?? "-"])
                retailers.removeAll()
                removedAt.removeAll()
                changed = true
            } else if index.version < version, !retailers.isEmpty {
                // Versions only grow: a store behind ours was put back from an older copy (a whole
                // volume, its served mark with it, so it kept its id). Its next versions reuse ours
                // for other prices, so no version held here says anything.
                logger.warning("price-ingest went back to an older version; reloading everything",
                               metadata: ["version": "\(index.version)", "was": "\(version)"])
                retailers.removeAll()
                removedAt.removeAll()
                changed = true
            }
            store = index.store
            let listed = Set((index.retailers ?? []).map(\.retailer))
            for gone in retailers.keys where !listed.contains(gone) {
                changed = drop(gone, removedAt: index.version) || changed
            }
            // One retailer price-ingest cannot read (a damaged row) does not keep the others from
            // being served: it is asked for again every 30 s, and the status says which it is.
            var failed: [(retailer: String, reason: String)] = []
            for entry in index.retailers ?? [] where !holds(entry) {
                do {
                    let reply = try client.call(MessageType.ingestSnapshot, SnapshotRequest(retailer: entry.retailer),
                                                as: SnapshotReply.self)
                    if let state = reply.state {
                        // Only the retailer asked for: a state of another would be held under a name
                        // the index does not list (and never removed).
                        guard state.retailer == entry.retailer else {
                            failed.append((entry.retailer, "the snapshot for \(entry.retailer) holds \(state.retailer)"))
                            continue
                        }
                        retailers[state.retailer] = state
                        removedAt[state.retailer] = nil
                        changed = true
                    }
                } catch where error.code == .notFound {
                    // Removed between the index and this request: gone, not unreadable.
                    changed = drop(entry.retailer, removedAt: index.version) || changed
                } catch where error.code != .unavailable && error.code != .timeout {
                    failed.append((entry.retailer, error.message))
                }
            }
            if failed.map(\.retailer) != unreadable {
                for (retailer, reason) in failed {
                    logger.warning("retailer snapshot unreadable; serving the others",
                                   metadata: ["retailer": retailer, "error": reason])
                }
            }
            unreadable = failed.map(\.retailer)
            retryUnreadableAt = failed.isEmpty ? nil : ContinuousClock.now + Self.unreadableRetry
            // Adopt the publisher's version as it is, even if lower: after price-ingest's store is
            // restored from a backup its counter goes back, and the replica must follow it.
            version = index.version
            head = index.head
            let reason = resyncReason ?? "-"
            resyncReason = nil
            snapshotFailing = false
            heard()
            let partial = failed.isEmpty ? nil
                : "price-ingest could not give the snapshot of " + failed.map { "\($0.retailer) (\($0.reason))" }
                    .joined(separator: ", ")
            status.withLock {
                $0.resyncs += 1
                $0.lastError = partial
            }
            logger.info("synchronised from snapshot", metadata: ["version": "\(version)", "retailers": "\(retailers.count)",
                                                                  "reason": reason])
            return changed
        } catch {
            status.withLock { $0.lastError = error.message }
            // One warning when snapshots start failing (the reason a replica never gets ready), then quiet.
            if snapshotFailing {
                logger.debug("snapshot unavailable, will retry", metadata: ["error": error.message])
            } else {
                logger.warning("snapshot unavailable, will retry", metadata: ["endpoint": ingestEndpoint,
                                                                               "error": error.message])
            }
            snapshotFailing = true
            return false
        }
    }

    /// Notes that price-ingest was just heard; after a silence, says so and resynchronises.
    private func heard() {
        lastHeard = ContinuousClock.now
        if silent {
            silent = false
            requestResync("price-ingest heard again after a silence")
            logger.info("price-ingest heard again; resynchronising")
        }
        status.withLock {
            $0.lastHeard = lastHeard
            $0.silent = false
        }
    }

    /// Marks a resynchronisation as due, keeping the first reason given.
    private func requestResync(_ reason: String) {
        if resyncReason == nil { resyncReason = reason }
    }

    /// Warns when price-ingest has been silent for longer than `silenceLimit`, and again every
    /// minute while it stays so. A subscription that never carried a word is said as such: a
    /// snapshot came, so price-ingest is up, and `--ingest-pub` is likely not its publisher.
    private func checkSilence() {
        let now = ContinuousClock.now
        guard now - lastHeard > Self.silenceLimit else { return }
        if !silent {
            silent = true
            status.withLock { $0.silent = true }
        } else if let warned = silenceWarnedAt, now - warned < Self.silenceWarningEvery {
            return
        }
        silenceWarnedAt = now
        let silentFor = "\(Int((now - lastHeard).inSeconds))s"
        if heardOnSubscription || store == nil {
            // Heard before, or no snapshot either: price-ingest itself is away.
            if store == nil {
                logger.warning("price-ingest silent; no prices held yet, lookups answer unavailable", metadata: [
                    "endpoint": publishEndpoint, "silentFor": silentFor])
            } else {
                logger.warning("price-ingest silent; answering from the index held", metadata: [
                    "endpoint": publishEndpoint, "silentFor": silentFor, "version": "\(version)"])
            }
        } else {
            logger.warning("nothing ever came from price-ingest's publisher; not ready", metadata: [
                "endpoint": publishEndpoint, "silentFor": silentFor,
                "fix": "set --ingest-pub / FUELBOARD_INGEST_PUB to price-ingest's publisher (its --bind-pub)"])
        }
    }

    /// Builds a new index from every retailer's stations and swaps it in.
    private func rebuild() {
        let started = ContinuousClock.now
        let groups = retailers.keys.sorted().compactMap { retailers[$0]?.stations }
        let index = PriceIndex(stationGroups: StationGroups(groups))
        holder.swap(index, version: version)
        // The previous index and the decoded updates are garbage now: give their pages back, so
        // the resident size follows what is held rather than the largest rebuild so far.
        ProcessMemory.trimHeap()
        let elapsed = ContinuousClock.now - started
        let seconds = elapsed.inSeconds
        let version = version, caughtUp = !needsResync
        status.withLock {
            $0.version = version
            $0.lastBuildSeconds = seconds
            // The served index now holds the snapshot's state: answers may be trusted.
            if caughtUp { $0.synced = true }
        }
        logger.info("index swapped", metadata: ["version": "\(version)", "stations": "\(index.count)",
                                                "buildMs": "\(Int(seconds * 1000))"])
    }
}

/// The sync thread's status, readable from any thread.
public final class SyncStatusBox: Sendable {
    private let value = Mutex(ReplicaSync.SyncStatus())

    public var current: ReplicaSync.SyncStatus { value.withLock { $0 } }

    func withLock<T>(_ body: (inout ReplicaSync.SyncStatus) -> T) -> T { value.withLock { body(&$0) } }
}
