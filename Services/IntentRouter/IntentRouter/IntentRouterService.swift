import Foundation
import Messages
import ServiceKit
import ZeroMQ

/// intent-router: the front door. Matches utterances to intents, runs resolve -> confirm ->
/// handle, and answers `assistant.ask` and `assistant.run`.
///
/// Everything runs in the reply server's one loop: each ask is answered later (a deferred
/// reply) while its backend calls travel on DEALER sockets watched by the same poll, so any
/// number of asks are in flight at once and none waits on another. A 20 ms tick expires
/// backend calls and, as a last guard, answers any ask whose deadline has passed.
public final class IntentRouterService {
    /// The loop this service runs in (it owns the service: keep the server, not the service).
    public unowned let server: ReplyServer
    public let configuration: RouterConfiguration
    let engine: DialogueEngine
    let backends: Backends
    private let runner: ActionRunner
    private let speaker: Speaker
    private let logger: Logger
    private var inFlight: [UInt64: AskContext] = [:]
    private var serial: UInt64 = 0
    private var stats = RouterStats()
    private var ticks = 0
    /// Sessions ended early already logged (`noteSessionsEndedEarly`).
    private var sessionsEndedEarlyLogged: UInt64 = 0
    /// Lines for asks (those written at info), at most 20 a second.
    private var askLines = LogThrottle(perSecond: 20, leftOutEvent: "ask lines not logged")
    let plugins: PluginDialogue
    private var pluginAsks: [ObjectIdentifier: PluginAsk] = [:]

    static let tick: Duration = .milliseconds(20)
    static let maxUtteranceLength = 1000

    /// Builds the router in a new reply server and returns the server, which owns it.
    /// Throws when a socket cannot bind or connect, or a phrase does not compile.
    public static func makeServer(context: Context, configuration: RouterConfiguration, logger: Logger,
                                  now: @escaping () -> ContinuousClock.Instant = { ContinuousClock.now })
        throws -> ReplyServer
    {
        let server = try ReplyServer(name: "intent-router", context: context, bind: configuration.endpoint,
                                     logger: logger, maxRequestBytes: ReplyServer.smallRequestBytes)
        let service = try IntentRouterService(server: server, context: context, configuration: configuration,
                                              logger: logger, now: now)
        service.register()
        // A stop answers the asks in flight first: none waits longer than the deadline.
        try server.drainOnStop(grace: configuration.deadline + .milliseconds(500))
        return server
    }

    private init(server: ReplyServer, context: Context, configuration: RouterConfiguration, logger: Logger,
                 now: @escaping () -> ContinuousClock.Instant) throws {
        self.server = server
        self.configuration = configuration
        self.logger = logger
        let recognizer = try IntentRecognizer(appName: configuration.appName)
        let sessions = SessionStore(timeToLive: configuration.sessionTTL, maxSessions: configuration.maxSessions,
                                    now: now)
        engine = DialogueEngine(recognizer: recognizer, sessions: sessions)
        backends = try Backends(context: context, location: configuration.location, lookup: configuration.lookup,
                                dialog: configuration.dialog, schedule: { [unowned server] action in
                                    server.after(.zero, action)
                                })
        for backend in backends.all {
            backend.onDownChanged = { [logger, name = backend.name, endpoint = backend.endpoint] down in
                if down {
                    logger.warning("backend down", metadata: ["backend": name, "endpoint": endpoint,
                                                              "why": "calls could not be sent within their grace"])
                } else {
                    logger.notice("backend back", metadata: ["backend": name, "endpoint": endpoint])
                }
            }
            // At most a line a second per backend: a wrong endpoint fails every ask.
            var refusals = LogThrottle(perSecond: 1, leftOutEvent: "backend errors not logged")
            backend.onRefused = { [logger, name = backend.name, endpoint = backend.endpoint] type, callID, error in
                guard refusals.admit(logging: logger) else { return }
                logger.warning("backend error", metadata: ["backend": name, "endpoint": endpoint, "svc.type": type,
                                                           "svc.call.id": callID, "code": error.code.rawValue,
                                                           "message": error.message])
            }
        }
        runner = ActionRunner(backends: backends)
        speaker = Speaker(dialog: backends.dialog, appName: configuration.appName)
        // An endpoint it cannot bind stops the start, as its own endpoint does: a replica running on
        // without it took no intent service and said so in one line nobody might read.
        let relay = try PluginRelay(context: context, bind: configuration.plugins)
        let registry = PluginRegistry(appName: configuration.appName, builtIns: recognizer.intents)
        let broker = PluginBroker(registry: registry, relay: relay, logger: logger,
                                  schedule: { [unowned server] action in server.after(.zero, action) })
        plugins = PluginDialogue(broker: broker, sessions: PluginSessionStore(
            timeToLive: configuration.sessionTTL, maxSessions: configuration.maxSessions, now: now),
                                 recognizer: recognizer, appName: configuration.appName)
    }

    /// Hooks the handlers, sockets and timer into the server; the closures keep `self` alive.
    private func register() {
        for channel in backends.all {
            for (replica, socket) in channel.sockets.enumerated() {
                server.watch(socket) { frames in channel.received(frames, from: replica) }
            }
        }
        server.on(MessageType.assistantAsk.rawValue) { request in self.handleAsk(request) }
        server.on(MessageType.assistantRun.rawValue) { request in self.handleRun(request) }
        server.watch(plugins.broker.relay.pipe) { frames in self.plugins.broker.received(frames) }
        // A plug-in sent here by mistake is told where plug-ins connect (it was only "unknown request type").
        for type in PluginMessageType.allCases {
            server.unknownTypeHints[type.rawValue] = "this is the ask endpoint: intent services connect to the "
                + "router's --plugins endpoint, \(plugins.broker.relay.endpoint)"
        }
        server.on(routerServicesType) { request in
            request.reply(RouterServicesReply(endpoint: self.plugins.broker.endpoint,
                                              services: self.plugins.registry.listing))
        }
        server.on(routerForgetType) { request in
            do throws(ServiceError) {
                let body = try request.decodeBody(RouterForgetRequest.self)
                return request.reply(try self.plugins.broker.forget(body, requestID: request.logID))
            } catch {
                return request.reply(error: error)
            }
        }
        plugins.finish = { ask, reply in self.finishPlugin(ask, reply) }
        logger.info("plugins open", metadata: ["svc.plugins": plugins.broker.endpoint])
        server.every(Self.tick) { self.onTick() }
        server.afterTurn = { for channel in self.backends.all { channel.sendOutbox() } }
        server.statsDetails = { self.statsDetails() }
    }

    // MARK: - Requests

    private func handleAsk(_ request: IncomingRequest) -> ReplyServer.Outcome {
        let started = ContinuousClock.now
        var body: AssistantAskRequest
        do {
            body = try request.decodeBody(AssistantAskRequest.self)
            try Self.validate(user: body.user, location: body.location, session: body.session, locale: body.locale)
            body.location = Self.reported(body.location)
            guard !body.utterance.isBlank else {
                throw ServiceError.badRequest("utterance is empty")
            }
            // Counting characters walks the text; within the limit in bytes, it is within it.
            guard body.utterance.utf8.count <= Self.maxUtteranceLength
                    || body.utterance.count <= Self.maxUtteranceLength else {
                throw ServiceError.badRequest("utterance is longer than \(Self.maxUtteranceLength) characters")
            }
        } catch {
            return request.reply(error: ServiceError.from(error))
        }
        let understood = engine.understand(body.utterance)
        // What was understood, never the words: people say where they are ("I'm at 10 High Street").
        logger.debug("utterance", metadata: ["svc.request.id": request.logID, "characters": "\(body.utterance.count)",
                                             "intent": understood.call?.intent.rawValue ?? "-"])
        if let outcome = askPlugin(request, body, understood: understood, started: started) { return outcome }
        let decision = engine.ask(user: body.user, understood: understood, session: body.session,
                                  location: body.location)
        return begin("ask", request, user: body.user, locale: body.locale, now: body.now, location: body.location,
                     decision: decision, started: started)
    }

    private func handleRun(_ request: IncomingRequest) -> ReplyServer.Outcome {
        let started = ContinuousClock.now
        var body: AssistantRunRequest
        let call: IntentCall
        do {
            body = try request.decodeBody(AssistantRunRequest.self)
            try Self.validate(user: body.user, location: body.location, session: body.session, locale: body.locale)
            body.location = Self.reported(body.location)
            if Intent(rawValue: body.intent) == nil, let registered = plugins.registry.intent(named: body.intent) {
                let parameters = try registered.grammar.runParameters(body.parameters ?? [:])
                let (outcome, ask) = pluginAsk(request, user: body.user, locale: body.locale, now: body.now,
                                               location: body.location, started: started)
                startPlugin(body.intent, parameters: parameters, ask, confirmed: body.confirmed ?? false)
                return outcome
            }
            call = try RunParameters.call(intent: body.intent, parameters: body.parameters,
                                          pluginIntents: plugins.registry.intentNames)
        } catch {
            return request.reply(error: ServiceError.from(error))
        }
        let decision = engine.run(user: body.user, call: call, confirmed: body.confirmed ?? false,
                                  location: body.location)
        return begin("run", request, user: body.user, locale: body.locale, now: body.now, location: body.location,
                     decision: decision, started: started)
    }

    /// The location an ask reports, or nil for 0,0: what a device without a fix sends ("null island",
    /// in the Gulf of Guinea). Stored, it replaced the user's last-known location, and every later
    /// ask without one answered "outside the UK".
    static func reported(_ location: Coordinate?) -> Coordinate? {
        guard let location, location.lat != 0 || location.lng != 0 else { return nil }
        return location
    }

    static func validate(user: String, location: Coordinate?, session: String?, locale: String?) throws(ServiceError) {
        try UserID.check(user)
        if let location, !location.isOnEarth {
            throw .badRequest("location must have lat in -90...90 and lng in -180...180")
        }
        if let session, session.count > 128 { throw .badRequest("session is not an id this router gave") }
        if let locale, locale.count > 35 { throw .badRequest("locale is not a BCP 47 tag") }
    }

    // MARK: - Handle and answer

    private func begin(_ kind: String, _ request: IncomingRequest, user: String, locale: String?, now: Date?,
                       location: Coordinate?, decision: Decision,
                       started: ContinuousClock.Instant) -> ReplyServer.Outcome {
        let (outcome, responder) = request.deferReply()
        serial &+= 1
        let key = serial
        let ask = AskContext(kind: kind, requestID: request.logID, user: user, locale: locale, now: now,
                             reportedLocation: location, decision: decision, started: started,
                             budget: configuration.deadline, responder: responder)
        inFlight[key] = ask
        if let location, !ActionRunner.storesLocation(decision.step) { runner.storeLocation(location, ask) }
        switch decision.step {
        case .say(let prompt):
            runner.render(prompt, ask) { render in
                var handled = Handled(prompt.code, render)
                // The help answer, and "I didn't catch that" with what can be asked, go on with what
                // the plug-ins plugged in now say they do.
                if render.outcome == .help || render.outcome == .notUnderstood {
                    handled.addedSentences = self.plugins.registry.helpSentences
                }
                self.speaker.speak(handled, for: ask) { reply in self.finish(key, ask, reply) }
            }
        case .handle(let action):
            runner.run(action, ask) { handled in
                var handled = handled
                if decision.questionStaysIfRefused, let id = decision.session {
                    if handled.render.outcome == .radiusOutOfRange, let needs = self.engine.askAgain(id, user: user) {
                        handled = Handled(.needsValue, handled.render, needsAgain: needs)  // "How far?" still waits
                    } else {
                        if let session = self.engine.sessions.find(id, user: user) { self.engine.sessions.close(session) }
                        handled.endsSession = true
                    }
                }
                if handled.code == .success, handled.render.station != nil || handled.render.outcome == .nothingInRange,
                   let id = decision.session {
                    self.engine.sessions.remember(handled.render, session: id, user: user)
                }
                if handled.code == .failure, let id = decision.session {
                    if handled.render.outcome == .radiusOutOfRange, let followUp = decision.followUpIfRefused,
                       self.engine.sessions.reinstate(followUp, replacing: id) {
                        handled.continuesIn = followUp.id  // "within 20 then"
                    } else {
                        // Nothing to follow up (no location, prices unreachable): the conversation ends.
                        if let session = self.engine.sessions.find(id, user: user) { self.engine.sessions.close(session) }
                        handled.endsSession = true
                    }
                }
                self.speaker.speak(handled, for: ask) { reply in self.finish(key, ask, reply) }
            }
        }
        return outcome
    }

    private func finish(_ key: UInt64, _ ask: AskContext, _ answer: Answer) {
        guard ask.markAnswered() else { return }
        inFlight[key] = nil
        switch answer {
        case .reply(let reply): ask.responder.reply(reply)
        case .spliced(let reply): ask.responder.reply(reply)
        }
        stats.record(intent: answer.intent, code: answer.code, outcome: answer.outcome)
        logAsk(ask.kind, code: answer.code, started: ask.started) {
            ["svc.request.id": ask.requestID, "intent": answer.intent ?? "-", "code": answer.code.rawValue,
             "outcome": answer.outcome?.rawValue ?? "-"]
        }
    }

    /// One line per ask that did not succeed (at most `askLines.perSecond` a second); successful
    /// asks only at debug (under load a line per ask is more log than anyone reads: sys.stats
    /// counts them). `metadata` is built only when the line is written; `ms` is added.
    private func logAsk(_ event: String, code: AssistantCode, started: ContinuousClock.Instant,
                        _ metadata: () -> [String: String]) {
        let level: Logger.Level = code == .success ? .debug : .info
        guard level >= logger.level else { return }
        if level > .debug, !askLines.admit(logging: logger) { return }
        var fields = metadata()
        fields["ms"] = "\((ContinuousClock.now - started).wholeMilliseconds)"
        logger.log(level, event, metadata: fields)
    }

    func trackPlugin(_ ask: PluginAsk) {
        pluginAsks[ObjectIdentifier(ask)] = ask
    }

    func forget(_ ask: PluginAsk) {
        pluginAsks[ObjectIdentifier(ask)] = nil
    }

    private func finishPlugin(_ ask: PluginAsk, _ reply: AssistantReply) {
        pluginAsks[ObjectIdentifier(ask)] = nil
        ask.responder.reply(reply)
        stats.record(intent: reply.intent, code: reply.code)
        logAsk("ask", code: reply.code, started: ask.started) {
            ["svc.request.id": ask.requestID, "intent": reply.intent ?? "-", "code": reply.code.rawValue,
             "service": reply.service ?? "-", "result": reply.result?.rawValue ?? "-", "why": ask.failureReason ?? "-"]
        }
    }

    private func onTick() {
        let now = ContinuousClock.now
        backends.expire(now: now)
        plugins.broker.tick(now: now)
        for ask in pluginAsks.values where ask.deadline <= now && ask.markAnswered() {
            stats.recordDeadlineMiss()
            finishPlugin(ask, plugins.timedOut(ask))
        }
        for (key, ask) in inFlight where ask.deadline <= now {
            stats.recordDeadlineMiss()
            finish(key, ask, speaker.timedOut(ask))
        }
        ticks += 1
        if ticks % 50 == 0 {
            askLines.flush(logging: logger)  // a flood of failing asks that stopped: its last count
            engine.sessions.purgeExpired()
            plugins.sessions.purgeExpired()
            noteSessionsEndedEarly()
        }
    }

    /// One line when open questions were dropped, still live, to make room since the last look (at
    /// most one a second): users were in mid-conversation, and the operator can raise --max-sessions.
    private func noteSessionsEndedEarly() {
        let ended = engine.sessions.questionsEndedEarly + plugins.sessions.endedEarly
        guard ended > sessionsEndedEarlyLogged else { return }
        logger.warning("sessions ended early", metadata: [
            "count": "\(ended - sessionsEndedEarlyLogged)", "maxSessions": "\(configuration.maxSessions)",
            "why": "the session table was full of open questions; raise --max-sessions if these are real users"])
        sessionsEndedEarlyLogged = ended
    }

    // MARK: - Stats

    private func statsDetails() -> [String: JSONValue] {
        func perBackend(_ value: (BackendChannel) -> UInt64) -> JSONValue {
            .object(Dictionary(uniqueKeysWithValues: backends.all.map { ($0.name, .number(Double(value($0)))) }))
        }
        engine.sessions.purgeExpired()
        return [
            "asksByIntent": RouterStats.counts(stats.asksByIntent),
            "asksByCode": RouterStats.counts(stats.asksByCode),
            "asksByOutcome": RouterStats.counts(stats.asksByOutcome),
            "backendTimeouts": perBackend(\.timeouts),
            "backendUnavailable": perBackend(\.unavailable),
            "backendReconnects": perBackend(\.reconnects),
            "backendLateReplies": perBackend(\.lateReplies),
            "backendRetries": perBackend(\.retries),
            "backendBatches": perBackend(\.batchesSent),
            "backendCallsInBatches": perBackend(\.callsBatched),
            "backendCallsInFlight": perBackend { UInt64($0.inFlight) },
            "backendDown": perBackend { $0.isDown ? 1 : 0 },
            "sessionsOpen": .number(Double(engine.sessions.count)),
            "sessionsEndedEarly": .number(Double(engine.sessions.questionsEndedEarly + plugins.sessions.endedEarly)),
            "utterancesRemembered": .number(Double(engine.understandingCounts.remembered)),
            "utterancesUnderstoodAfresh": .number(Double(engine.understandingCounts.fresh)),
            "asksInFlight": .number(Double(inFlight.count)),
            "fallbackDialogs": .number(Double(speaker.fallbacks)),
            "deadlineMisses": .number(Double(stats.deadlineMisses)),
            "appName": .string(configuration.appName),
            "plugins": pluginDetails(),
        ]
    }
}
