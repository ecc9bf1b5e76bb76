import Dispatch
import Foundation
import Messages
import ServiceKit
import Synchronization
import ZeroMQ

/// An intent service: connects to the router's plug-in endpoint, registers its intents, answers
/// resolve / confirm / handle requests, and keeps itself registered (two-way heartbeats; a
/// silent router is reconnected and a router that forgot it is registered with again).
///
///     let service = IntentService(name: "station-prices", router: "tcp://127.0.0.1:5556", intents: [...])
///     try service.run()              // blocks; or service.start() for a thread of its own
///
/// Handlers run on the service's own thread, one at a time, and no heartbeat goes out meanwhile:
/// keep them shorter than the heartbeat (one blocking for 3 heartbeats gets the instance expired).
/// Only a refused registration stops the service; a refused reply is logged and counted.
public final class IntentService: Sendable {
    public let name: String
    public let router: String
    public let instance: String
    public let heartbeat: Duration
    public let intents: [IntentDefinition]
    let logger: Logger

    public init(name: String, router: String, instance: String? = nil, heartbeat: Duration = .seconds(1),
                intents: [IntentDefinition], logger: Logger? = nil) {
        self.name = name
        self.router = router
        self.instance = instance ?? "\(name)-\(getpid())-\(String(UInt32.random(in: 0 ... UInt32.max), radix: 36))"
        self.heartbeat = heartbeat
        self.intents = intents
        self.logger = logger ?? Logger(label: name)
    }

    /// Runs on the calling thread until `context` is shut down (returns) or the router refuses
    /// the registration (throws `IntentServiceRefused`).
    public func run(context: Context = Context()) throws {
        let control = IntentServiceControl()
        try IntentServiceLoop(service: self, context: context, control: control).run()
        if let refusal = control.status.refusal { throw IntentServiceRefused(refusal: refusal) }
    }

    /// Runs on a thread of its own, with a context of its own.
    public func start() -> RunningIntentService {
        let context = Context()
        let control = IntentServiceControl()
        let finished = DispatchSemaphore(value: 0)
        let threadName = name
        let thread = Thread { [self] in
            Thread.nameCurrent(threadName)
            do {
                try IntentServiceLoop(service: self, context: context, control: control).run()
            } catch {
                logger.error("intent service stopped", metadata: ["error": "\(error)"])
            }
            control.update { $0.running = false }
            finished.signal()
        }
        thread.start()
        return RunningIntentService(context: context, control: control, finished: finished)
    }
}

/// The router refused the registration (an intent or phrase collision, or a bad declaration).
public struct IntentServiceRefused: Error, CustomStringConvertible {
    public let refusal: PluginRefused
    public var description: String { "registration refused (\(refusal.code)): \(refusal.reason)" }
}

/// What a running service has done so far.
public struct IntentServiceStatus: Sendable {
    public var running = true
    /// Times the router accepted the registration (more than one after a router restart).
    public var registrations = 0
    public var registered = false
    public var refusal: PluginRefused?
    /// Requests answered.
    public var handled = 0
    /// Replies the router refused (could not read or use; the reason is logged).
    public var refusedReplies = 0
    /// Connections dropped and made again because the router fell silent.
    public var reconnects = 0
}

/// Shared between a service's thread and whoever controls it.
final class IntentServiceControl: Sendable {
    enum Mode: Int { case running, stopping, suspended }
    private let state = Mutex(IntentServiceStatus())
    private let modeValue = Atomic<Int>(Mode.running.rawValue)
    let changed = DispatchSemaphore(value: 0)

    var status: IntentServiceStatus { state.withLock { $0 } }
    var mode: Mode { Mode(rawValue: modeValue.load(ordering: .acquiring)) ?? .running }

    func set(_ mode: Mode) { modeValue.store(mode.rawValue, ordering: .releasing) }

    func update(_ change: (inout IntentServiceStatus) -> Void) {
        state.withLock { change(&$0) }
        changed.signal()
    }
}

/// A service started with `start()`.
public final class RunningIntentService: Sendable {
    private let context: Context
    private let control: IntentServiceControl
    private let finished: DispatchSemaphore

    init(context: Context, control: IntentServiceControl, finished: DispatchSemaphore) {
        self.context = context
        self.control = control
        self.finished = finished
    }

    public var status: IntentServiceStatus { control.status }

    /// Waits until `predicate` holds for the status; false at the timeout.
    @discardableResult
    public func wait(timeout: Duration = .seconds(5), until predicate: (IntentServiceStatus) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !predicate(control.status) {
            guard ContinuousClock.now < deadline else { return false }
            _ = control.changed.wait(timeout: .now() + .milliseconds(20))
        }
        return true
    }

    /// Says `plugin.bye` and stops.
    public func stop() {
        control.set(.stopping)
        waitForThread()
        context.shutdown()
    }

    /// Stops dead, without a word to the router (as `kill -9` would).
    public func kill() {
        context.shutdown()
        waitForThread()
    }

    /// Waits (at most 5 s) for the thread to end; leaves the semaphore signalled for later calls.
    private func waitForThread() {
        if finished.wait(timeout: .now() + 5) == .success { finished.signal() }
    }

    /// Stops reading and writing but keeps the connection (as `SIGSTOP` would); `resume()` goes on.
    public func suspend() { control.set(.suspended) }
    public func resume() { control.set(.running) }
}
