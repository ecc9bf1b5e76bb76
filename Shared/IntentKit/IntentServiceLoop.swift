import Foundation
import Messages
import ServiceKit
import ZeroMQ

/// The service's loop (Paranoid Pirate worker): one DEALER to the router, register, answer
/// requests, heartbeat both ways, reconnect and register again when the router falls silent or
/// says it does not know this instance.
final class IntentServiceLoop {
    let service: IntentService
    let context: Context
    let control: IntentServiceControl
    private var socket: Socket
    private let poller = Poller()
    private let handlers: [String: IntentDefinition]
    private var lastHeard = ContinuousClock.now
    private var lastSent = ContinuousClock.now
    private var registerSentAt = ContinuousClock.now
    private var registered = false
    private var interval: Duration

    init(service: IntentService, context: Context, control: IntentServiceControl) throws(ZMQError) {
        self.service = service
        self.context = context
        self.control = control
        handlers = Dictionary(service.intents.map { ($0.declaration.name, $0) },
                              uniquingKeysWith: { first, _ in first })
        interval = service.heartbeat
        socket = try Self.connect(context, service.router)
        poller.add(socket)
    }

    private static func connect(_ context: Context, _ endpoint: String) throws(ZMQError) -> Socket {
        let socket = try Socket(context, .dealer)
        socket.linger = .zero
        socket.sendHighWaterMark = 1000
        socket.reconnectInterval = .milliseconds(100)
        try socket.connect(endpoint)
        return socket
    }

    func run() throws {
        sendRegister()
        do {
            while true {
                switch control.mode {
                case .stopping:
                    send(PluginSignal(type: .bye, instance: service.instance))
                    socket.close()
                    return
                case .suspended:
                    _ = try poller.poll(timeout: .milliseconds(20))
                    lastHeard = .now
                    continue
                case .running:
                    break
                }
                let ready = try poller.poll(timeout: min(interval, .milliseconds(50)))
                if !ready.isEmpty { try drain() }
                if control.status.refusal != nil { return }
                try keepAlive()
            }
        } catch where error.isTerminated {
            socket.close()
        }
    }

    private func drain() throws(ZMQError) {
        for _ in 0 ..< 1000 {
            let frames: [Data]
            do {
                frames = try socket.receive(dontWait: true)
            } catch where error.isTimeout {
                return
            }
            lastHeard = .now
            if let payload = frames.last { handle(payload) }
        }
    }

    private func handle(_ payload: Data) {
        guard let head = try? JSONCoding.decode(PluginHead.self, from: payload),
              let type = head.type.flatMap(PluginMessageType.init(rawValue:)) else { return }
        switch type {
        case .registered:
            if let message = try? JSONCoding.decode(PluginRegistered.self, from: payload) {
                interval = .milliseconds(message.heartbeatMs)
                for warning in message.warnings ?? [] {
                    service.logger.warning("registration warning", metadata: ["warning": warning])
                }
            }
            registered = true
            control.update { $0.registrations += 1; $0.registered = true }
            service.logger.info("registered", metadata: ["svc.endpoint": service.router, "instance": service.instance])
        case .refused:
            guard let refusal = try? JSONCoding.decode(PluginRefused.self, from: payload) else { return }
            if refusal.reregister {
                registered = false
                control.update { $0.registered = false }
                sendRegister()
            } else if registered || refusal.id != nil {
                // Once registered, a refusal is about a frame sent since (a reply the router could
                // not read or use): the service goes on.
                service.logger.warning("reply refused", metadata: ["code": refusal.code, "reason": refusal.reason])
                control.update { $0.refusedReplies += 1 }
            } else {
                service.logger.error("registration refused", metadata: ["code": refusal.code, "reason": refusal.reason])
                control.update { $0.refusal = refusal; $0.registered = false }
            }
        case .request:
            guard let request = try? JSONCoding.decode(PluginRequest.self, from: payload) else { return }
            let result = handlers[request.intent]?.run(request)
                ?? .failure("Sorry, \(service.name) doesn't handle \(request.intent).")
            send(PluginReply(id: request.id, result))
            control.update { $0.handled += 1 }
        case .heartbeat, .register, .reply, .bye:
            break
        }
    }

    /// Heartbeats, registration retries, and a reconnect when the router has been silent for
    /// three intervals.
    private func keepAlive() throws(ZMQError) {
        let now = ContinuousClock.now
        if now - lastHeard > interval * 3 {
            service.logger.notice("router silent: reconnecting", metadata: ["svc.endpoint": service.router])
            socket.close()
            socket = try Self.connect(context, service.router)
            poller.replace(at: 0, with: socket)
            registered = false
            lastHeard = now
            control.update { $0.reconnects += 1; $0.registered = false }
            sendRegister()
        } else if !registered, now - registerSentAt >= interval {
            sendRegister()
        }
        if now - lastSent >= interval {
            send(PluginSignal(type: .heartbeat, instance: service.instance))
        }
    }

    private func sendRegister() {
        registerSentAt = .now
        send(PluginRegister(service: service.name, instance: service.instance,
                            intents: service.intents.map(\.declaration),
                            heartbeatMs: service.heartbeat.wholeMilliseconds))
    }

    private func send<Message: Encodable>(_ message: Message) {
        guard let payload = try? JSONCoding.encode(message) else { return }
        lastSent = .now
        _ = try? socket.send(payload, dontWait: true)
    }
}
