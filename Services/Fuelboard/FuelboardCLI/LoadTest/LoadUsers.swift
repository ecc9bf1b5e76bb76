import Foundation
import Messages
import ServiceKit
import Synchronization

/// After a router load test, forgets the users it asked as (`load-0`...): the router stored a
/// location for each, which would otherwise stay in location-cache until its TTL.
enum LoadUsers {
    /// One `location.forget` per user, in `sys.batch` frames of 500 (about 45 KB: location-cache takes
    /// requests of up to 64 KiB).
    struct Batch: Encodable {
        struct Forget: Encodable {
            let v = 1
            let id: String
            let type = MessageType.locationForget.rawValue
            let body: UserRequest
        }
        let requests: [Forget]
    }

    /// Whether the load test's users are in location-cache, still to be forgotten: a second Ctrl-C,
    /// which stops the process at once, then says they are left there.
    static let pending = Atomic<Bool>(false)

    /// Forgets `users` (their numbers) at `endpoint`, saying so first (each batch of 500 is erased
    /// from disk in one commit); a line says what happened. A location-cache that does not
    /// answer is not waited for (the users then expire with their TTL).
    static func forget(_ users: [Int], at endpoint: String, router: String, _ cli: CLIContext) {
        defer { pending.store(false, ordering: .relaxed) }
        guard !users.isEmpty else { return }
        // A Ctrl-C that ended the run asks for the report, not to skip this; one during it stops it
        // between batches (and a second one, as ever, stops the process at once).
        let interruptedBefore = LoadRunner.stopRequested.load(ordering: .relaxed)
        guard cli.answers(endpoint, within: .seconds(2)),
              let client = try? cli.client(endpoint, timeout: .seconds(10), retries: 0) else {
            CLIContext.printStatus("location-cache does not answer at \(endpoint) (--location): the load test's "
                + "\(users.count) users (load-\(users[0])...) stay there until their TTL")
            return
        }
        // Asks the run left queued at the router still store their users' positions: forgotten
        // before the router is through them, those users came back (QA: 5,000 left after an
        // overloaded run said they were forgotten).
        let routerDone = waitUntilIdle(router, cli)
        CLIContext.printStatus("forgetting the load test's \(users.count) users in location-cache at \(endpoint) "
            + "(--keep-users leaves them)...")
        var forgotten = 0
        for start in stride(from: 0, to: users.count, by: 500) {
            if !interruptedBefore && LoadRunner.stopRequested.load(ordering: .relaxed) {
                CLIContext.printStatus("interrupted: \(forgotten) of the load test's \(users.count) users forgotten; "
                    + "the others stay in location-cache until their TTL")
                return
            }
            let requests = users[start..<min(start + 500, users.count)].map {
                Batch.Forget(id: "\($0)", body: UserRequest(user: LoadPlan.user($0)))
            }
            guard (try? client.callRaw(MessageType.sysBatch.rawValue, Batch(requests: requests))) != nil else {
                CLIContext.printStatus("location-cache at \(endpoint) did not take the load test's users away "
                    + "(\(forgotten) of \(users.count) done): the others stay until their TTL")
                return
            }
            forgotten += requests.count
        }
        CLIContext.printStatus("forgot the load test's \(forgotten) users in location-cache at \(endpoint)"
            + (routerDone ? "" : "; intent-router was still answering the run's asks, and users it stores after "
                + "this stay until their TTL"))
    }

    /// How long the router may take over the asks a run left with it.
    static let routerDrainLimit: Duration = .seconds(60)

    /// Waits until every router at `endpoint` (one, or a list) has no ask in flight and took no
    /// new one since it was last asked: the run's queued asks are all answered. False when that
    /// took longer than `routerDrainLimit`, or a router stopped answering `sys.stats`.
    static func waitUntilIdle(_ endpoint: String, _ cli: CLIContext) -> Bool {
        let deadline = ContinuousClock.now + routerDrainLimit
        let interruptedBefore = LoadRunner.stopRequested.load(ordering: .relaxed)
        var said = false
        for replica in Endpoint.list(endpoint) {
            guard let client = try? cli.client(replica, timeout: .seconds(2), retries: 0) else { return false }
            var last: UInt64?
            while true {
                guard let (asks, inFlight) = askCounts(client) else { return false }
                if inFlight == 0, asks == last { break }
                if last != nil, !said {
                    CLIContext.printStatus("waiting for intent-router to answer the asks the run left with it...")
                    said = true
                }
                let interrupted = !interruptedBefore && LoadRunner.stopRequested.load(ordering: .relaxed)
                if ContinuousClock.now >= deadline || interrupted { return false }
                last = asks
                Thread.sleep(forTimeInterval: 0.2)
            }
        }
        return true
    }

    /// The router's `assistant.ask` count and asks in flight, from its `sys.stats`.
    private static func askCounts(_ client: RequestClient) -> (asks: UInt64, inFlight: Double)? {
        guard let stats = try? client.call(.sysStats, EmptyBody(), as: StatsBody.self) else { return nil }
        var inFlight = 0.0
        if case .number(let count)? = stats.details["asksInFlight"] { inFlight = count }
        return (stats.requestsByType[MessageType.assistantAsk.rawValue] ?? 0, inFlight)
    }
}
