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
        // A replica that stops reading (a paused process, a lost node) must not make price-ingest
        // hold every update for it: ZMTP heartbeats close a connection whose peer has not answered
        // for 10 s, and at most 1,000 messages wait for one that is slow. A replica that misses
        // updates either way sees the gap in versions and resynchronises from a snapshot. (With
        // 10,000 and no heartbeat, a paused replica took price-ingest from 200 to 464 MB.)
        socket.sendHighWaterMark = 1000
        socket.setHeartbeat(interval: .seconds(1), timeout: .seconds(10))
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

    func heartbeat(version: UInt64, store: String, head: String?) {
        guard let data = try? JSONCoding.encode(PriceHeartbeat(version: version, store: store, head: head)) else {
            return
        }
        try? socket.send([Data(PriceTopic.heartbeat.utf8), data], dontWait: true)
    }
}
