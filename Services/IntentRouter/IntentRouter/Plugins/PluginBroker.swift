import Foundation
import Messages
import ServiceKit

/// Why a plug-in call produced no result.
enum PluginCallFailure: Error, Equatable {
    /// Every instance of the service is gone.
    case noInstance
    /// The instance did not answer by the deadline.
    case timeout
    /// The instance left or was expired with the request in flight.
    case gone
    /// The instance answered with a `plugin.reply` the router cannot read.
    case unreadable
}

/// A reply matched to its call: the stage's result, and which instance sent it under which id (so
/// that an answer the router cannot use can be refused back to its sender).
struct PluginAnswer {
    let id: String
    let instance: PluginInstance
    let result: PluginResult
}

/// The intent-service side of the router (Majordomo-like): registrations, two-way heartbeats,
/// expiry, round-robin dispatch with deadlines, replies matched by id. Runs on the loop thread;
/// the socket lives in `PluginRelay`.
final class PluginBroker {
    let registry: PluginRegistry
    let relay: PluginRelay
    let logger: Logger
    private let schedule: (@escaping () -> Void) -> Void
    var pending: [String: Pending] = [:]
    private var counter: UInt64 = 0
    private let idPrefix = String(UInt32.random(in: 0 ... UInt32.max), radix: 36)

    private(set) var registrations: UInt64 = 0
    private(set) var refusals: UInt64 = 0
    private(set) var expiries: UInt64 = 0
    private(set) var garbage: UInt64 = 0
    private(set) var timeouts: UInt64 = 0
    private(set) var lateReplies: UInt64 = 0
    private(set) var redispatched: UInt64 = 0
    /// Replies to a call that could not be read (the call failed at once).
    var unreadableReplies: UInt64 = 0
    /// Lines about refused replies (unreadable or unusable), at most 20 a second.
    var replyLines = LogThrottle(perSecond: 20, leftOutEvent: "refused plugin replies not logged")
    /// Lines about refused frames (registrations, wrong versions), at most 20 a second: a peer may
    /// send thousands of frames a second.
    var refusalLines = LogThrottle(perSecond: 20, leftOutEvent: "plugin refusals not logged")
    /// Why connections lately dropped were (expired, taken over), by routing id: what "this router
    /// does not know you" says to one that speaks again (it said nothing of why: plug-in QA).
    private var droppedWhy: [Data: String] = [:]
    static let droppedWhyKept = 1_000

    struct Pending {
        let instance: PluginInstance
        let entry: PluginServiceEntry
        let request: PluginRequest
        let deadline: ContinuousClock.Instant
        let complete: (Result<PluginAnswer, PluginCallFailure>) -> Void
    }

    /// `plugin.register` frames waiting their turn.
    var registrationQueue = RegistrationQueue()

    init(registry: PluginRegistry, relay: PluginRelay, logger: Logger,
         schedule: @escaping (@escaping () -> Void) -> Void) {
        self.registry = registry
        self.relay = relay
        self.logger = logger
        self.schedule = schedule
    }

    var endpoint: String { relay.endpoint }
    var requestsInFlight: Int { pending.count }

    // MARK: - Calls

    /// Sends one stage to the next live instance of `entry`; `complete` runs exactly once.
    /// `prefer` keeps an ask's stages on one replica while it lives. Returns the instance used.
    @discardableResult
    func call(_ entry: PluginServiceEntry, _ request: PluginRequest, deadline: ContinuousClock.Instant,
              prefer: PluginInstance? = nil,
              complete: @escaping (Result<PluginAnswer, PluginCallFailure>) -> Void) -> PluginInstance? {
        let preferred = prefer.flatMap { wanted in entry.instances.first { $0 === wanted } }
        guard let instance = preferred ?? entry.pick() else {
            schedule { complete(.failure(.noInstance)) }
            return nil
        }
        counter &+= 1
        var request = request
        request.id = "\(idPrefix)-\(counter)"
        request.deadlineMs = max(1, (deadline - .now).wholeMilliseconds)
        guard let payload = try? JSONCoding.encode(request) else {
            schedule { complete(.failure(.gone)) }
            return nil
        }
        pending[request.id] = Pending(instance: instance, entry: entry, request: request, deadline: deadline,
                                      complete: complete)
        instance.inFlight += 1
        instance.lastSent = .now
        relay.send(to: instance.routingID, payload)
        return instance
    }

    // MARK: - Frames from services

    /// One message from the relay: `[routing id, payload]`, or `[routing id, why, payload]` for a
    /// message the relay could not deliver.
    func received(_ frames: [Data]) {
        if frames.count == 3 {
            undeliverable(to: frames[0], gone: frames[1] == Data(PluginRelay.undeliverableGone.utf8), frames[2])
            return
        }
        guard frames.count == 2 else { return }
        let routingID = frames[0], payload = frames[1]
        let now = ContinuousClock.now
        // A repeated name is refused by the message's own reading below (a heartbeat's is let be).
        let decoded = try? JSONCoding.decode(PluginHead.self, from: payload, allowingRepeatedNames: true)
        guard let head = decoded, let type = head.type, let kind = PluginMessageType(rawValue: type) else {
            ignore(payload, "not a plug-in message")
            // Said to the sender: a typo in a type ("plugin.heartbeet") met silence, and the ask
            // waiting on it its deadline (plug-in QA).
            let why = decoded == nil ? "the frame is not a JSON object"
                : decoded?.type.map { "\"\($0.prefix(40))\" is not a plug-in message type" } ?? "the frame has no \"type\""
            return refuse(routingID, .bad(why + " (a service sends plugin.register, plugin.heartbeat, plugin.reply "
                + "or plugin.bye)"), service: registry.byRoutingID[routingID]?.service ?? "-")
        }
        let known = registry.byRoutingID[routingID]
        known?.lastHeard = now
        if payload.count > PluginRelay.maxMessageBytes {
            let why = "the frame is \(payload.count) bytes, over the \(PluginRelay.maxMessageBytes >> 10) KiB limit"
            if kind == .reply, let known {
                return unreadableReply(payload, from: known, routingID: routingID, why)
            }
            return refuse(routingID, PluginRefusal.bad("\(type): \(why)"), service: known?.service ?? "-",
                          instance: known?.instance ?? "-")
        }
        if [.registered, .refused, .request].contains(kind) {
            return ignore(payload, "a router-side message sent to the router")
        }
        guard head.speaksWireVersion else {
            return wrongVersion(kind, head.v, payload, from: known, routingID: routingID)
        }
        switch kind {
        case .register:
            // In turn, within the time registrations may take (`RegistrationQueue`): at once
            // unless others wait or the time is spent.
            registrationQueue.hold(payload, from: routingID)
            takeRegistrations(now: now)
        case .heartbeat:
            if known == nil { sendUnknown(routingID) }
        case .reply:
            guard let known else {
                // Told, so it registers again at once rather than at its next heartbeat.
                ignore(payload, "reply from an unregistered peer")
                return sendUnknown(routingID, replyID: head.id?.stringValue)
            }
            let reply: PluginReply
            do {
                reply = try JSONCoding.decode(PluginReply.self, from: payload)
            } catch {
                return unreadableReply(payload, from: known, routingID: routingID, ServiceError.describe(error))
            }
            guard let call = pending[reply.id], call.instance === known else {
                lateReplies += 1
                return
            }
            logUnreadMembers(of: payload, from: known)
            pending[reply.id] = nil
            known.inFlight -= 1
            known.handled += 1
            call.complete(.success(PluginAnswer(id: reply.id, instance: known, result: reply.body)))
        case .bye:
            guard let known else { return }
            // A bye names (if anything) the sender's own instance: one naming another removed the
            // sender, which went on heartbeating into "register again" (QA).
            if let named = (try? JSONCoding.decode(PluginSignal.self, from: payload))?.instance, named != known.instance {
                return ignore(payload, "plugin.bye naming another instance than the sender's")
            }
            logger.info("plugin left", metadata: ["service": known.service, "instance": known.instance])
            drop(known, failure: .gone)
        case .registered, .refused, .request:
            break
        }
    }

    /// `unknown_instance` to a connection the router does not know, saying why when it dropped it.
    private func sendUnknown(_ routingID: Data, replyID: String? = nil) {
        let why = droppedWhy[routingID].map { " (\($0))" } ?? ""
        let late = replyID == nil ? "" : "; your reply came after that and was not used"
        send(routingID, PluginRefused(code: "unknown_instance", reason: "this router does not know you\(why)\(late): "
            + "register again", reregister: true, id: replyID))
    }

    /// Notes why `routingID`'s registration was dropped, for `sendUnknown`.
    private func noteDropped(_ routingID: Data, _ why: String) {
        if droppedWhy.count >= Self.droppedWhyKept { droppedWhy.removeAll(keepingCapacity: true) }
        droppedWhy[routingID] = why
    }

    /// A reply's members the router does not read (`dialogue` for `dialog`), logged once per
    /// instance: the answer is used without them, so the service is not refused. Only an instance's
    /// first few answers to calls are read for it, and only small ones: read whole, every reply of
    /// a flood of 10,000-member replies held the loop 22 ms (hostile QA).
    private func logUnreadMembers(of payload: Data, from instance: PluginInstance) {
        guard !instance.unreadMembersLogged, instance.repliesCheckedForMembers < UnreadMembers.repliesChecked,
              payload.count <= UnreadMembers.maxCheckedBytes else { return }
        instance.repliesCheckedForMembers += 1
        let unread = UnreadMembers.ofReply(payload)
        guard !unread.isEmpty else { return }
        instance.unreadMembersLogged = true
        logger.warning("plugin reply members not read", metadata: [
            "service": instance.service, "instance": instance.instance, "members": unread.joined(separator: ", "),
            "why": "not members of plugin.reply (misspelt?); the answer was used without them"])
    }

    private func register(_ message: PluginRegister, routingID: Data, now: ContinuousClock.Instant,
                          unread: [String] = []) {
        do {
            let admission = try registry.register(message, routingID: routingID, now: now)
            droppedWhy[routingID] = nil
            if let replaced = admission.replaced {
                // The same instance id from a new connection: a restart, or two processes sharing an id.
                let takeovers = admission.instance.takeovers
                let shared = takeovers >= RegisteredInstance.sharedIdTakeovers
                var metadata = ["service": replaced.service, "instance": replaced.instance,
                                "requestsFailed": "\(replaced.inFlight)", "takeovers": "\(takeovers)"]
                // Taken over at every turn: two processes with one id, or one whose connection keeps
                // dropping (one process did so by replying over 1 MiB: plug-in QA).
                if shared {
                    metadata["why"] = "two processes sharing one instance id, or one whose connection keeps dropping "
                        + "(a frame over 1 MiB drops it)"
                }
                logger.log(shared ? .warning : .notice, shared ? "plugin instance id keeps being taken over"
                           : replaced.routingID == routingID ? "plugin re-registered"
                           : "plugin re-registered from a new connection", metadata: metadata)
                if replaced.routingID != routingID {
                    noteDropped(replaced.routingID, "instance \(replaced.instance) was registered since from another "
                        + "connection: a restart, or two processes sharing one instance id")
                }
                failPending(of: replaced, .gone)
            }
            if let forgotten = admission.forgotten {
                logger.notice("plugin service forgotten", metadata: [
                    "service": forgotten, "why": "the longest stopped, to make room for \(message.service)"])
            }
            for claimed in admission.claimedFrom {
                logger.notice("plugin service forgotten", metadata: [
                    "service": claimed, "why": "stopped, and \(message.service) took every intent it had"])
            }
            registrations += 1
            let instance = admission.instance
            let intents = registry.services[instance.service]?.intents.map(\.name) ?? []
            let warnings = unread.map { "\($0): not a member the router reads (misspelt?); left out" }
            send(routingID, PluginRegistered(service: instance.service, instance: instance.instance,
                                             heartbeatMs: instance.heartbeat.wholeMilliseconds, intents: intents,
                                             warnings: warnings.isEmpty ? nil : warnings))
            instance.lastSent = now
            logger.info("plugin registered", metadata: ["service": instance.service, "instance": instance.instance,
                                                        "intents": intents.joined(separator: ",")])
        } catch {
            refuse(routingID, error, service: message.service, instance: message.instance)
        }
    }

    /// `router.forget`: a stopped service out of the registry, for an operator.
    func forget(_ request: RouterForgetRequest, requestID: String) throws(ServiceError) -> RouterForgetReply {
        let intents = registry.services[request.service]?.intents.map(\.name) ?? []
        switch registry.forget(service: request.service) {
        case .forgotten:
            logger.notice("plugin service forgotten", metadata: ["svc.request.id": requestID, "service": request.service,
                                                                 "why": "asked"])
            return RouterForgetReply(service: request.service, intents: intents)
        case .unknown:
            throw ServiceError.notFound("no intent service '\(request.service.prefix(60))' is registered")
        case .running(let instances):
            throw ServiceError(.conflict, "service '\(request.service)' has \(instances) running instance(s): "
                + "only a service none of whose instances runs is forgotten")
        }
    }

    func refuse(_ routingID: Data, _ refusal: PluginRefusal, service: String = "-", instance: String = "-") {
        refusals += 1
        if refusalLines.admit(logging: logger) {
            logger.notice("plugin refused", metadata: ["code": refusal.code, "reason": refusal.reason,
                                                       "service": service, "instance": instance])
        }
        send(routingID, PluginRefused(code: refusal.code, reason: refusal.reason, reregister: false))
    }

    func ignore(_ payload: Data, _ why: String) {
        garbage += 1
        if garbage < 10 || garbage % 1000 == 0 {
            logger.info("plugin frame ignored", metadata: ["why": why, "bytes": "\(payload.count)",
                                                           "ignored": "\(garbage)"])
        }
    }

    /// A message the relay could not deliver: the instance is gone (or its queue is full), so a
    /// request in it is sent to another replica when there is one.
    private func undeliverable(to routingID: Data, gone: Bool, _ payload: Data) {
        let instance = gone ? registry.byRoutingID[routingID] : nil
        if let instance {
            logger.notice("plugin unreachable", metadata: ["service": instance.service, "instance": instance.instance])
            registry.remove(instance)
        }
        if let request = try? JSONCoding.decode(PluginRequest.self, from: payload),
           let call = pending.removeValue(forKey: request.id) {
            call.instance.inFlight -= 1
            redispatched += 1
            self.call(call.entry, call.request, deadline: call.deadline, complete: call.complete)
        }
        // Requests it may have received before it went cannot safely run twice: they fail.
        if let instance { failPending(of: instance, .gone) }
    }

    /// Takes the registrations waiting, as far as their share of the loop's time allows.
    func takeRegistrations(now: ContinuousClock.Instant) {
        registrationQueue.takeTurns(now: now) { routingID, payload in
            let message: PluginRegister
            do {
                message = try JSONCoding.decode(PluginRegister.self, from: payload)
            } catch {
                // The frame's shape, said when a member is missing, not after a wrong type elsewhere.
                var missing = false
                if case DecodingError.keyNotFound? = error as? DecodingError { missing = true }
                return refuse(routingID, PluginRefusal.bad("plugin.register: \(ServiceError.describe(error))" + (missing
                    ? " (it needs service, instance and intents, each with name and phrases)" : "")))
            }
            register(message, routingID: routingID, now: ContinuousClock.now, unread: UnreadMembers.of(payload))
        }
    }

    // MARK: - Liveness

    /// Sends due heartbeats, expires silent instances and overdue requests; writes the count of
    /// unreadable-reply lines left out once that flood has stopped.
    func tick(now: ContinuousClock.Instant) {
        if registrationQueue.count > 0 { takeRegistrations(now: now) }
        if replyLines.hasLeftOut { replyLines.flush(logging: logger) }
        if refusalLines.hasLeftOut { refusalLines.flush(logging: logger) }
        for instance in Array(registry.byRoutingID.values) {
            if now - instance.lastHeard > instance.expiresAfter {
                expiries += 1
                logger.notice("plugin expired", metadata: ["service": instance.service, "instance": instance.instance])
                noteDropped(instance.routingID, "it expired: the router heard nothing from it for "
                    + ServiceMain.secondsText(instance.expiresAfter))
                drop(instance, failure: .gone)
            } else if now - instance.lastSent >= instance.heartbeat {
                send(instance.routingID, PluginSignal(type: .heartbeat))
                instance.lastSent = now
            }
        }
        let overdue = pending.filter { $0.value.deadline <= now }
        for (id, call) in overdue {
            pending[id] = nil
            call.instance.inFlight -= 1
            timeouts += 1
            call.complete(.failure(.timeout))
        }
    }

    private func drop(_ instance: PluginInstance, failure: PluginCallFailure) {
        registry.remove(instance)
        failPending(of: instance, failure)
    }

    /// Answers every request in flight to `instance` at once: nothing is lost silently.
    private func failPending(of instance: PluginInstance, _ failure: PluginCallFailure) {
        let mine = pending.filter { $0.value.instance === instance }
        for (id, call) in mine {
            pending[id] = nil
            instance.inFlight -= 1
            call.complete(.failure(failure))
        }
    }

    func send<Message: Encodable>(_ routingID: Data, _ message: Message) {
        guard let payload = try? JSONCoding.encode(message) else { return }
        relay.send(to: routingID, payload)
    }
}
