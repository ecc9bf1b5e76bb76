import Foundation
import Synchronization
import ZeroMQ

/// A stand-in fuel-lookup on a ROUTER socket that writes its own reply bytes: pings are answered
/// as the services answer them, every `lookup.*` request with whatever `reply` makes of its id
/// (as written in the request) and body, or not at all when it gives nil. For replies the
/// services would never write (spaces, keys in another order, wrong content, broken JSON).
final class RawLookupServer: Sendable {
    let endpoint: String
    private let stopped = StopFlag()
    private let finished = DispatchSemaphore(value: 0)

    /// With `notDelivered`, `sys.stats` is answered too, its `repliesNotDelivered` what it gives.
    init(notDelivered: (@Sendable () -> Int)? = nil,
         reply: @escaping @Sendable (_ id: String, _ body: [String: Any]) -> String?) throws {
        // Used by the server's thread alone once it starts.
        nonisolated(unsafe) let socket = try Socket(Context(), .router)
        socket.receiveTimeout = .milliseconds(50)
        socket.linger = .zero
        endpoint = try socket.bind("tcp://127.0.0.1:*")
        let thread = Thread { [stopped, finished] in
            while !stopped.value.load(ordering: .relaxed) {
                guard let frames = try? socket.receive(), let payload = frames.last,
                      let request = try? JSONSerialization.jsonObject(with: payload) as? [String: Any] else { continue }
                let id = (try? JSONSerialization.data(withJSONObject: request["id"] ?? NSNull(), options: .fragmentsAllowed))
                    .map { String(decoding: $0, as: UTF8.self) } ?? "null"
                let text: String?
                if request["type"] as? String == "sys.ping" {
                    text = #"{"body":{},"id":\#(id),"ok":true,"v":1}"#
                } else if request["type"] as? String == "sys.stats", let notDelivered {
                    let latency = #"{"count":0,"mean":0,"p50":0,"p90":0,"p99":0,"max":0}"#
                    text = #"{"v":1,"id":\#(id),"ok":true,"body":{"service":"fuel-lookup","uptimeSeconds":1,"#
                        + #""requests":0,"requestsByType":{},"errorsByCode":{},"latencyMicroseconds":\#(latency),"#
                        + #""details":{"repliesNotDelivered":\#(notDelivered())}}}"#
                } else {
                    text = reply(id, request["body"] as? [String: Any] ?? [:])
                }
                guard let text else { continue }
                try? socket.send(Array(frames.dropLast()) + [Data(text.utf8)])
            }
            socket.close()
            finished.signal()
        }
        thread.start()
    }

    func stop() {
        stopped.value.store(true, ordering: .relaxed)
        _ = finished.wait(timeout: .now() + 5)
    }
}

/// A flag the server's thread reads and `stop` sets.
private final class StopFlag: Sendable {
    let value = Atomic<Bool>(false)
}
