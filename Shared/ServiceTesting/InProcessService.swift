import Dispatch
import Foundation
import ServiceKit
import Synchronization
import ZeroMQ

/// Runs a `ReplyServer` on its own thread with its own context, for tests.
///
/// `start` returns once the server has bound (so its real endpoint is known: bind
/// `tcp://127.0.0.1:*` and never pick a port); `stop()` shuts the context down and waits for the
/// loop to return. Each service has its own context, so tests stop independently.
public final class InProcessService: Sendable {
    public let endpoint: String
    public let context: Context
    private let finished: DispatchSemaphore

    private init(endpoint: String, context: Context, finished: DispatchSemaphore) {
        self.endpoint = endpoint
        self.context = context
        self.finished = finished
    }

    /// Builds the server on a new thread with `make` and runs it.
    public static func start(
        _ make: @escaping @Sendable (Context) throws -> ReplyServer
    ) throws -> InProcessService {
        let context = Context()
        let ready = DispatchSemaphore(value: 0)
        let outcome = Mutex<Result<String, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            run(make, context: context, outcome: outcome, ready: ready)
            // Only now: the server, and what it held (a store's open database), is gone, so a test
            // that removes its data directory after `stop()` does not race the store's last writes.
            done.signal()
        }
        thread.start()
        ready.wait()
        let endpoint = try outcome.withLock { $0! }.get()
        return InProcessService(endpoint: endpoint, context: context, finished: done)
    }

    /// Builds the server, says so through `outcome` and `ready`, and runs it until its context is shut down.
    private static func run(_ make: (Context) throws -> ReplyServer, context: Context,
                            outcome: borrowing Mutex<Result<String, any Error>?>, ready: DispatchSemaphore) {
        let server: ReplyServer
        do {
            server = try make(context)
        } catch {
            outcome.withLock { $0 = .failure(error) }
            ready.signal()
            return
        }
        outcome.withLock { $0 = .success(server.endpoint) }
        ready.signal()
        try? server.run()
    }

    /// Stops the loop and waits (at most 5 s) for it to return.
    public func stop() {
        context.shutdown()
        _ = finished.wait(timeout: .now() + 5)
    }
}
