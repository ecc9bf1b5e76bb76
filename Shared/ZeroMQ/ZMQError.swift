import CZeroMQ
import Glibc

/// A failed libzmq call: the errno it left and the operation that failed.
///
/// Callers branch on the predicates: a receive timeout (`isTimeout`), a context shut down
/// (`isTerminated`) and a signal (`isInterrupted`) each need different handling.
public struct ZMQError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The errno value libzmq reported.
    public let code: Int32
    /// What was being done, e.g. `zmq_bind(tcp://127.0.0.1:5553)`.
    public let operation: String

    public init(code: Int32, operation: String) {
        self.code = code
        self.operation = operation
    }

    /// A receive or send timed out (`ZMQ_RCVTIMEO`/`ZMQ_SNDTIMEO` expired, or `ZMQ_DONTWAIT`).
    public var isTimeout: Bool { code == EAGAIN }
    /// The context was shut down: the owner wants every loop to stop.
    public var isTerminated: Bool { code == ETERM }
    /// A signal interrupted the call.
    public var isInterrupted: Bool { code == EINTR }
    /// A ROUTER socket with `ROUTER_MANDATORY` could not route to the peer (it has gone).
    public var isHostUnreachable: Bool { code == EHOSTUNREACH }

    public var description: String {
        "\(operation): \(String(cString: zmq_strerror(code))) (errno \(code))"
    }
}

/// The one chokepoint for libzmq calls that return -1 on failure: retries EINTR, keeps errno.
@inline(__always)
func zmqCall(_ operation: @autoclosure () -> String, _ body: () -> Int32) throws(ZMQError) -> Int32 {
    while true {
        let result = body()
        if result != -1 { return result }
        let code = zmq_errno()
        if code == EINTR { continue }
        precondition(code != ENOTSOCK && code != EFAULT, "libzmq misuse: \(operation()) errno \(code)")
        throw ZMQError(code: code, operation: operation())
    }
}
