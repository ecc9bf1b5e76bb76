import Foundation
import ZeroMQ

/// A stop that lets the requests in flight finish: for a service whose requests wait on others
/// (intent-router's asks wait on the backends, up to its deadline), so that a rolling restart does
/// not drop the asks it was answering.
///
/// On a stop request (`stopRequest()`, from a signal handler's thread) the loop stops taking requests, answers
/// those in flight, and returns once none is left or `grace` has passed, a moment after the last
/// reply so that libzmq's I/O thread has written it. Requests that arrive meanwhile wait in the
/// socket unread and go with it, as they would with no drain.
extension ReplyServer {
    final class Drain {
        let grace: Duration
        let endpoint: String
        /// Taking requests stopped; waiting for those in flight.
        var started = false
        /// The last replies are on their way; the loop ends at `isOver`.
        var finishing = false
        var isOver = false

        init(grace: Duration, endpoint: String) {
            self.grace = grace
            self.endpoint = endpoint
        }
    }

    /// How long after the last reply the loop still runs, for libzmq to write it out.
    static let flushTime: Duration = .milliseconds(50)

    /// Makes a stop (`stopRequest()`) drain the requests in flight for up to `grace`.
    public func drainOnStop(grace: Duration) throws(ZMQError) {
        let control = try Socket(context, .pull)
        let endpoint = try control.bind("inproc://reply-server-stop-\(UUID().uuidString)")
        drain = Drain(grace: grace, endpoint: endpoint)
        watch(control) { [unowned self] _ in self.beginDrain() }
    }

    /// How long a stop may drain; nil when it does not (`drainOnStop` was not called).
    public var drainGrace: Duration? { drain?.grace }

    /// What asks the loop to drain and stop, callable from any thread (a signal handler's); nil
    /// without `drainOnStop`.
    public func stopRequest() -> (@Sendable () -> Void)? {
        guard let endpoint = drain?.endpoint else { return nil }
        let context = context
        return {
            guard let push = try? Socket(context, .push) else { return }
            push.linger = .seconds(1)
            try? push.connect(endpoint)
            try? push.send([Data("stop".utf8)])
        }
    }

    private func beginDrain() {
        guard let drain, !drain.started else { return }
        drain.started = true
        poller.pause(at: 0)
        logger.info("stopping: answering the requests in flight", metadata: [
            "inFlight": "\(requestsInFlight)", "grace": ServiceMain.secondsText(drain.grace)])
        after(drain.grace) { [unowned self] in
            // What is still in flight is answered by its owner now (`whenGraceEnds`), if it can be.
            if requestsInFlight > 0 { whenGraceEnds?() }
            finishDrain()
        }
        checkDrained()
    }

    /// Ends the drain once nothing is in flight (called at the end of every turn).
    func checkDrained() {
        guard let drain, drain.started, !drain.finishing, requestsInFlight == 0 else { return }
        finishDrain()
    }

    private func finishDrain() {
        guard let drain, !drain.finishing else { return }
        drain.finishing = true
        after(Self.flushTime) { drain.isOver = true }
    }
}
