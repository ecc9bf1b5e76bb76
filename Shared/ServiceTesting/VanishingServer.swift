import Foundation
import Messages
import Synchronization
import ZeroMQ

/// A server that crashes mid-request, for tests of what a client does then: a ROUTER on an
/// ephemeral loopback port that answers `sys.ping` (as `service`) and closes its socket,
/// unanswered, on the first request of any other type (as a process killed while it works does).
public final class VanishingServer: Sendable {
    public let endpoint: String
    private let gone = DispatchSemaphore(value: 0)

    public init(service: String = "price-ingest", timeout: Duration = .seconds(60)) throws {
        let bound = DispatchSemaphore(value: 0)
        let endpointBox = Mutex<String?>(nil)
        let gone = self.gone
        Thread.detachNewThread {
            defer { gone.signal() }
            guard let socket = try? Socket(Context(), .router), let endpoint = try? socket.bind("tcp://127.0.0.1:*")
            else { bound.signal(); return }
            socket.linger = .zero
            socket.receiveTimeout = timeout
            endpointBox.withLock { $0 = endpoint }
            bound.signal()
            while let frames = try? socket.receive(), let request = frames.last,
                  let head = try? JSONDecoder().decode(RequestHead.self, from: request),
                  head.type == MessageType.sysPing.rawValue, case .string(let id) = head.id {
                let reply = #"{"v":1,"id":"\#(id)","ok":true,"body":{"service":"\#(service)","version":"test"}}"#
                try? socket.send(Array(frames.dropLast()) + [Data(reply.utf8)])
            }
            socket.close()
        }
        bound.wait()
        guard let endpoint = endpointBox.withLock({ $0 }) else { throw ZMQError(code: EADDRINUSE, operation: "bind") }
        self.endpoint = endpoint
    }

    /// Waits until the server has closed its socket.
    public func waitUntilGone() { gone.wait() }
}
