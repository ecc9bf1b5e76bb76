import Foundation
import Messages
import Synchronization
import ZeroMQ

/// A plug-in written without the kit, for tests where the exact frames matter: it sends the frames
/// it is given as text, answers each `plugin.request` with the frame `reply` makes of it, and keeps
/// every frame the router sends it.
final class PluginRawPeer: Sendable {
    private let context = Context()
    private let outbox = Mutex<[String]>([])
    private let frames = Mutex<[String]>([])
    private let arrived = DispatchSemaphore(value: 0)

    /// Connects to `endpoint` and, unless `register` is nil, registers with it first.
    init(endpoint: String, register: String?, reply: @escaping @Sendable (PluginRequest) -> String? = { _ in nil }) {
        if let register { outbox.withLock { $0.append(register) } }
        Thread { [self] in
            guard let socket = try? Socket(context, .dealer) else { return }
            socket.linger = .zero
            socket.receiveTimeout = .milliseconds(20)
            try? socket.connect(endpoint)
            // Ends at shutdown (ETERM), or after 30 s at most. Heartbeats once registered.
            let end = ContinuousClock.now + .seconds(30)
            var registered = false, lastBeat = ContinuousClock.now
            while ContinuousClock.now < end {
                if registered, ContinuousClock.now - lastBeat > .milliseconds(300) {
                    lastBeat = .now
                    send(#"{"v":1,"type":"plugin.heartbeat"}"#)
                }
                for text in outbox.withLock({ list in defer { list.removeAll() }; return list }) {
                    guard (try? socket.send([Data(), Data(text.utf8)])) != nil else { return }
                }
                let received: [Data]
                do {
                    received = try socket.receive()
                } catch {
                    if (error as? ZMQError)?.isTimeout == true { continue }
                    break
                }
                let text = String(decoding: received.last ?? Data(), as: UTF8.self)
                if text.contains("plugin.registered") { registered = true }
                if let request = try? JSONCoding.decode(PluginRequest.self, from: Data(text.utf8)),
                   text.contains("plugin.request"), let answer = reply(request) {
                    _ = try? socket.send([Data(), Data(answer.utf8)])
                }
                frames.withLock { $0.append(text) }
                arrived.signal()
            }
            socket.close()
        }.start()
    }

    /// Sends one frame as is.
    func send(_ text: String) {
        outbox.withLock { $0.append(text) }
    }

    /// The first frame the router sent that satisfies `predicate`, waiting up to `timeout`.
    func frame(timeout: Duration = .seconds(5), where predicate: (String) -> Bool) -> String? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let found = frames.withLock({ $0.first(where: predicate) }) { return found }
            guard ContinuousClock.now < deadline else { return nil }
            _ = arrived.wait(timeout: .now() + .milliseconds(20))
        }
    }

    /// The first `plugin.refused` the router sent, decoded.
    func refusal(timeout: Duration = .seconds(5)) -> PluginRefused? {
        frame(timeout: timeout) { $0.contains("plugin.refused") }
            .flatMap { try? JSONCoding.decode(PluginRefused.self, from: Data($0.utf8)) }
    }

    var isRegistered: Bool { frame(where: { $0.contains("plugin.registered") }) != nil }

    func stop() { context.shutdown() }

    /// A peer registered as `service` (instance `instance`) with one intent given as JSON text,
    /// answering every request with `fields`.
    static func answering(_ fields: String, at endpoint: String, service: String, instance: String,
                          intent: String) -> PluginRawPeer {
        PluginRawPeer(endpoint: endpoint, register: register(service: service, instance: instance, intents: [intent])) {
            reply($0.id, fields)
        }
    }

    /// A `plugin.register` frame for `service` with the intents given as JSON text.
    static func register(service: String, instance: String, intents: [String], v: String = "1") -> String {
        #"{"v":\#(v),"type":"plugin.register","service":"\#(service)","instance":"\#(instance)","#
            + #""heartbeatMs":1000,"intents":[\#(intents.joined(separator: ","))]}"#
    }

    /// A `plugin.reply` frame to request `id` with `fields` (JSON members, without braces).
    static func reply(_ id: String, _ fields: String, v: String = "1") -> String {
        #"{"v":\#(v),"type":"plugin.reply","id":"\#(id)",\#(fields)}"#
    }
}
