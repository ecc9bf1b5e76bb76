import Foundation
import Messages
import ServiceKit
import ZeroMQ

/// The PUB side of the Clone pattern: every accepted retailer state goes out with its version,
/// and a heartbeat repeats the current version so a replica notices a gap even when idle.
final class PricePublisher {
    let endpoint: String
    private let socket: Socket
    private let logger: Logger

    init(context: Context, bind endpoint: String, logger: Logger) throws(ZMQError) {
        socket = try Socket(context, .pub)
        socket.sendHighWaterMark = 10_000
        socket.linger = .zero
        self.endpoint = try socket.bind(endpoint)
        self.logger = logger
    }

    func publish(_ state: RetailerState) {
        do {
            let data = try JSONCoding.encode(state)
            try socket.send([Data(PriceTopic.update.utf8), data], dontWait: true)
        } catch {
            // A replica that misses this sees the version gap and resynchronises from a snapshot.
            logger.warning("update not published", metadata: ["retailer": state.retailer, "error": "\(error)"])
        }
    }

    func heartbeat(version: UInt64, store: String) {
        guard let data = try? JSONCoding.encode(PriceHeartbeat(version: version, store: store)) else { return }
        try? socket.send([Data(PriceTopic.heartbeat.utf8), data], dontWait: true)
    }
}
