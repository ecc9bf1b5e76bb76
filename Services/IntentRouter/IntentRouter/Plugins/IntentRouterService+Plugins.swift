import Foundation
import Messages
import ServiceKit

/// The router's front door for plug-in intents: open plug-in sessions first, then built-in
/// intents, then plug-in phrases.
extension IntentRouterService {
    /// Answers the ask through a plug-in intent, or returns nil to let the built-in engine do it.
    func askPlugin(_ request: IncomingRequest, _ body: AssistantAskRequest, understood: Understanding,
                   started: ContinuousClock.Instant) -> ReplyServer.Outcome? {
        let registry = plugins.registry
        // Plug-ins hear the words as said; the built-in engine, with misheard fuel words corrected.
        let heard = understood.heard
        if let id = body.session, let session = plugins.sessions.find(id, user: body.user) {
            let (outcome, ask) = pluginAsk(request, user: body.user, locale: body.locale, now: body.now,
                                           location: body.location, started: started)
            if plugins.answer(session, heard, ask) { return outcome }
            forget(ask)
        } else if let id = body.session, let session = engine.sessions.find(id, user: body.user),
                  engine.answers(understood.utterance, in: session) {
            return nil
        }
        guard !registry.services.isEmpty, !heard.content.isEmpty,
              understood.call == nil,
              let (grammar, match) = registry.recognize(registry.content(of: heard)) else { return nil }
        let (outcome, ask) = pluginAsk(request, user: body.user, locale: body.locale, now: body.now,
                                       location: body.location, started: started)
        startPlugin(grammar.name, parameters: grammar.parameters(from: match), ask)
        return outcome
    }

    /// Starts a plug-in intent. One declared `usesLocation`, asked without a location, first gets
    /// the user's last-known one, as a built-in "near me" does, when location-cache has it in time
    /// (a quarter of the ask's budget); the service is asked either way.
    func startPlugin(_ intent: String, parameters: [String: JSONValue], _ ask: PluginAsk, confirmed: Bool = false) {
        guard plugins.registry.intent(named: intent)?.grammar.usesLocation == true, ask.location == nil else {
            return plugins.start(intent: intent, parameters: parameters, ask, confirmed: confirmed)
        }
        backends.location.call(.locationGet, UserRequest(user: ask.user), as: LocationReply.self,
                               deadline: ask.started + configuration.deadline / 4) { [plugins] result in
            if case .success(let known) = result {
                ask.location = Coordinate(lat: known.lat, lng: known.lng)
                ask.locationAt = known.at
            }
            plugins.start(intent: intent, parameters: parameters, ask, confirmed: confirmed)
        }
    }

    /// Defers the request and tracks the ask until it is answered (or its deadline passes).
    func pluginAsk(_ request: IncomingRequest, user: String, locale: String?, now: Date?, location: Coordinate?,
                   started: ContinuousClock.Instant) -> (ReplyServer.Outcome, PluginAsk) {
        let (outcome, responder) = request.deferReply()
        let ask = PluginAsk(requestID: request.logID, user: user, locale: locale, now: now, location: location,
                            started: started, budget: configuration.deadline, responder: responder)
        trackPlugin(ask)
        if let location {
            // As for built-in intents: a location sent with the ask becomes the last-known one.
            backends.location.send(.locationPut, LocationPutRequest(user: user, lat: location.lat, lng: location.lng),
                                   deadline: started + configuration.deadline) { _ in }
        }
        return (outcome, ask)
    }

    func pluginDetails() -> JSONValue {
        let broker = plugins.broker
        let listing = plugins.registry.listing
        func number<N: BinaryInteger>(_ value: N) -> JSONValue { .number(Double(value)) }
        return .object([
            "endpoint": .string(broker.endpoint),
            "services": number(listing.count),
            "instances": number(listing.reduce(0) { $0 + $1.instances.count }),
            "registrations": number(broker.registrations),
            "registrationsWaiting": number(broker.registrationQueue.count),
            "registrationsSuperseded": number(broker.registrationQueue.superseded),
            "refusals": number(broker.refusals),
            "expiries": number(broker.expiries),
            "ignoredFrames": number(broker.garbage + broker.relay.malformed),
            "droppedByRateLimit": number(broker.relay.dropped),
            "undeliverable": number(broker.relay.undeliverable),
            "redispatched": number(broker.redispatched),
            "timeouts": number(broker.timeouts),
            "lateReplies": number(broker.lateReplies),
            "unreadableReplies": number(broker.unreadableReplies),
            "requestsInFlight": number(broker.requestsInFlight),
            "sessionsOpen": number(plugins.sessions.count),
        ])
    }
}
