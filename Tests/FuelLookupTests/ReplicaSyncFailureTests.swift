import Dispatch
import FuelLookup
import ServiceKit
import Testing
import ZeroMQ

/// A sync loop that fails (here: an endpoint its socket refuses) says so in the replica's status,
/// which `sys.stats` shows, and is started again; its thread used to end with one log line, and a
/// replica that had been in step kept saying so over an index that never changed again.
struct ReplicaSyncFailureTests {
    @Test(.timeLimit(.minutes(1)))
    func aFailingLoop_marksTheReplicaOutOfStep_withTheReason() throws {
        let context = Context()
        defer { context.shutdown() }
        let status = ReplicaSync.start(context: context, ingest: "tcp://127.0.0.1:1", ingestPub: "not-an-endpoint",
                                       holder: IndexHolder(), logger: Logger(label: "test", level: .critical))
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline, status.current.lastError == nil {
            _ = DispatchSemaphore(value: 0).wait(timeout: .now() + .milliseconds(50))
        }
        #expect(status.current.lastError?.hasPrefix("replica sync failed") == true,
                "lastError: \(status.current.lastError ?? "none")")
        #expect(!status.current.inStep)
    }
}
