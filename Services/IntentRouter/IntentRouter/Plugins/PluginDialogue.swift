import Foundation
import Messages
import ServiceKit

/// One ask that a plug-in intent answers: who asked, until when, and how to answer.
final class PluginAsk {
    let requestID: String
    let user: String
    let locale: String?
    let now: Date?
    /// The ask's location, else the session's.
    var location: Coordinate?
    /// When `location` was observed, when it is a last-known one (nil: it came with an ask).
    var locationAt: Date?
    let started: ContinuousClock.Instant
    let deadline: ContinuousClock.Instant
    let responder: Responder
    /// The replica that served the ask's first stage (later stages go there too while it lives).
    var instance: PluginInstance?
    private(set) var answered = false
    /// Why the ask failed when the router, not the service, decided it did (for the log line).
    var failureReason: String?

    init(requestID: String, user: String, locale: String?, now: Date?, location: Coordinate?,
         started: ContinuousClock.Instant, budget: Duration, responder: Responder) {
        self.requestID = requestID
        self.user = user
        self.locale = locale
        self.now = now
        self.location = location
        self.started = started
        self.responder = responder
        deadline = started + budget
    }

    func markAnswered() -> Bool {
        guard !answered else { return false }
        answered = true
        return true
    }
}

/// Runs a plug-in intent's stages (resolve -> confirm -> handle) through the broker, turns each
/// typed result into a reply, and carries needsValue, disambiguation and confirmation across turns
/// in sessions, as the built-in intents do.
final class PluginDialogue {
    let broker: PluginBroker
    let sessions: PluginSessionStore
    let recognizer: IntentRecognizer
    let appName: String
    /// Delivers a reply (set by the service; called once per ask, after `markAnswered`).
    var finish: (PluginAsk, AssistantReply) -> Void = { _, _ in }
    static let maxOptions = 20

    init(broker: PluginBroker, sessions: PluginSessionStore, recognizer: IntentRecognizer, appName: String) {
        self.broker = broker
        self.sessions = sessions
        self.recognizer = recognizer
        self.appName = appName
    }

    var registry: PluginRegistry { broker.registry }

    /// Starts an intent at its first stage (`confirmed` skips the confirm stage).
    func start(intent: String, parameters: [String: JSONValue], _ ask: PluginAsk, confirmed: Bool = false) {
        run(.resolve, intent: intent, parameters: parameters, ask, confirmed: confirmed)
    }

    /// Continues session `session` with an utterance. False when the utterance answers nothing
    /// but starts something new (the session is closed; the caller treats it as fresh).
    func answer(_ session: PluginSession, _ utterance: NormalizedUtterance, _ ask: PluginAsk) -> Bool {
        if ask.location == nil {
            ask.location = session.location
            ask.locationAt = session.locationAt
        }
        let next = ask
        if recognizer.followUp(utterance, among: [.cancel]) != nil {
            sessions.close(session.id)
            reply(next, .cancelled, FallbackDialog.render(RenderRequest(outcome: .cancelled), appName: appName).dialog,
                  intent: session.intent, result: nil)
            return true
        }
        var parameters = session.parameters
        switch session.awaiting {
        case .value(let name):
            if let grammar = registry.intent(named: session.intent)?.grammar,
               !startsSomethingNew(utterance), let value = PluginFollowUps.value(for: name, of: grammar, utterance) {
                sessions.close(session.id)
                parameters[name] = value
                start(intent: session.intent, parameters: parameters, next)
                return true
            }
        case .choice(let name, let options):
            if let option = PluginFollowUps.choice(among: options, utterance) {
                sessions.close(session.id)
                let declared = registry.intent(named: session.intent)?.grammar.parameterTypes[name]
                parameters[name] = Self.value(of: option, for: declared)
                start(intent: session.intent, parameters: parameters, next)
                return true
            }
        case .confirmation:
            if let yesNo = recognizer.followUp(utterance, among: [.yes, .no]) {
                sessions.close(session.id)
                if yesNo.label == .yes {
                    run(.handle, intent: session.intent, parameters: parameters, next, confirmed: true)
                } else {
                    reply(next, .cancelled, "OK, I won't.", intent: session.intent, result: nil)
                }
                return true
            }
        }
        if startsSomethingNew(utterance) {
            sessions.close(session.id)
            return false
        }
        var again = session
        again.misunderstandings += 1
        guard again.misunderstandings < 2 else {
            sessions.close(session.id)
            reply(next, .failure, "Sorry, I didn't catch that. Please start again.", intent: session.intent,
                  result: nil)
            return true
        }
        sessions.keep(again)
        if next.markAnswered() { finish(next, session.question) }
        return true
    }

    private func startsSomethingNew(_ utterance: NormalizedUtterance) -> Bool {
        recognizer.recognize(utterance) != nil || registry.recognize(registry.content(of: utterance)) != nil
    }

    // MARK: - Stages

    private func run(_ stage: PluginStage, intent: String, parameters: [String: JSONValue], _ ask: PluginAsk,
                     confirmed: Bool) {
        guard let (grammar, entry) = registry.intent(named: intent) else {
            return reply(ask, .failure, "Sorry, that isn't available any more.", intent: intent, result: nil)
        }
        guard grammar.stages.contains(stage), !(stage == .confirm && confirmed) else {
            guard let next = stage.next else {
                return reply(ask, .success, "Done.", intent: intent, result: .success, parameters: parameters,
                             service: entry.name)
            }
            return run(next, intent: intent, parameters: parameters, ask, confirmed: confirmed)
        }
        // Where the user is goes only to an intent that declared it needs it.
        let request = PluginRequest(id: "", stage: stage, intent: intent, parameters: parameters, user: ask.user,
                                    session: nil, location: grammar.usesLocation ? ask.location : nil,
                                    locale: ask.locale, now: ask.now, deadlineMs: 0, confirmed: confirmed ? true : nil,
                                    locationAt: grammar.usesLocation ? ask.locationAt : nil)
        ask.instance = broker.call(entry, request, deadline: ask.deadline - .milliseconds(20),
                                   prefer: ask.instance) { [self] outcome in
            switch outcome {
            case .failure(let failure):
                ask.failureReason = Self.logReason(failure)
                reply(ask, .failure, Self.failureDialog(failure, service: entry.name), intent: intent, result: nil,
                      parameters: parameters, service: entry.name)
            case .success(let answer):
                var merged = parameters
                for (name, value) in answer.result.parameters ?? [:] {
                    guard let declared = grammar.parameterTypes[name] else { continue }
                    do throws(ServiceError) {
                        merged[name] = try PluginIntentGrammar.check(value, for: declared, of: intent)
                    } catch {
                        return unusable(ask, answer, grammar, entry.name, error.message)
                    }
                }
                proceed(answer, stage: stage, grammar: grammar, service: entry.name, parameters: merged, ask,
                        confirmed: confirmed)
            }
        }
    }

    private func proceed(_ answer: PluginAnswer, stage: PluginStage, grammar: PluginIntentGrammar, service: String,
                         parameters: [String: JSONValue], _ ask: PluginAsk, confirmed: Bool) {
        let intent = grammar.name, result = answer.result
        let dialog = result.dialog.map { SpeakableText.clean($0) }
        func openSession(_ awaiting: PluginAwaiting, _ code: AssistantCode, needs: String?,
                         options: [PluginOption]?) {
            let session = sessions.open(user: ask.user, intent: intent, parameters: parameters, awaiting: awaiting,
                                        location: ask.location, locationAt: ask.locationAt) { id in
                // Options are shown and said: their titles as a dialog is, at most 200 characters.
                AssistantReply(code: code, dialog: dialog ?? "Sorry?", session: id, intent: intent,
                               parameters: parameters, needs: needs, service: service, result: result.result,
                               options: options?.map { option in
                                   var shown = option
                                   shown.title = SpeakableText.clean(option.title, limit: 200)
                                   return shown
                               })
            }
            if ask.markAnswered() { finish(ask, session.question) }
        }
        let showsCard = result.result == .failure || result.result == .inProgress
            || (result.result == .success && stage.next == nil)
        if showsCard, let fault = Self.snippetFault(result.snippet) {
            return unusable(ask, answer, grammar, service, fault)
        }
        switch result.result {
        case .success:
            if let next = stage.next {
                return run(next, intent: intent, parameters: parameters, ask, confirmed: confirmed)
            }
            if let url = result.opensURL, !Self.isWebURL(url) {
                // A client opens this link: nothing but a web page (never `javascript:`, `file:`...).
                return unusable(ask, answer, grammar, service, "opensURL must be an http or https URL of at most "
                    + "\(Self.maxURLLength) characters, without a user name, spaces or control characters")
            }
            // An answer without words says its value ("£1.45"), else "Done.": never nothing.
            let value = result.value.map { SpeakableText.clean($0, limit: 500) }
            let spoken = [dialog, value].lazy.compactMap { $0 }.first { !$0.allSatisfy(\.isWhitespace) } ?? "Done."
            reply(ask, .success, spoken, intent: intent, result: .success, parameters: parameters,
                  service: service, value: value, snippet: result.snippet?.speakable, opensURL: result.opensURL)
        case .needsValue:
            switch Self.askedParameter("needsValue", result, grammar) {
            case .failure(let fault): return unusable(ask, answer, grammar, service, fault.reason)
            case .success(let parameter):
                openSession(.value(parameter.name), .needsValue, needs: parameter.name, options: nil)
            }
        case .disambiguation:
            if let fault = Self.disambiguationFault(result, grammar) {
                return unusable(ask, answer, grammar, service, fault)
            }
            let name = result.parameter ?? "", options = result.options ?? []
            openSession(.choice(name, options), .disambiguation, needs: name, options: options)
        case .confirmationRequired:
            // Asked again after the user said yes, the user would be asked forever.
            if stage == .handle && confirmed {
                return unusable(ask, answer, grammar, service, "handle asked for confirmation of a request with "
                    + "\"confirmed\": true; proceed when the user has confirmed")
            }
            openSession(.confirmation, .confirmationRequired, needs: nil, options: nil)
        case .failure:
            reply(ask, .failure, dialog ?? "Sorry, that didn't work.", intent: intent, result: .failure,
                  parameters: parameters, service: service, value: result.value.map { SpeakableText.clean($0, limit: 500) }, snippet: result.snippet?.speakable)
        case .inProgress:
            reply(ask, .success, dialog ?? "I'm working on it.", intent: intent, result: .inProgress,
                  parameters: parameters, service: service, value: result.value.map { SpeakableText.clean($0, limit: 500) }, snippet: result.snippet?.speakable)
        }
    }

    /// Fails the ask with "gave an answer I can't use" and tells the instance why.
    private func unusable(_ ask: PluginAsk, _ answer: PluginAnswer, _ grammar: PluginIntentGrammar, _ service: String,
                          _ why: String) {
        ask.failureReason = "unusable answer: \(why)"
        broker.unusableAnswer(answer, why)
        reply(ask, .failure, "Sorry, the \(Self.spoken(service)) service gave an answer I can't use.",
              intent: grammar.name, result: nil, service: service)
    }

    private func reply(_ ask: PluginAsk, _ code: AssistantCode, _ dialog: String, intent: String,
                       result: PluginResultCode?, parameters: [String: JSONValue]? = nil, service: String? = nil,
                       value: String? = nil, snippet: Snippet? = nil, opensURL: String? = nil) {
        guard ask.markAnswered() else { return }
        finish(ask, AssistantReply(code: code, dialog: dialog, value: value, snippet: snippet, opensURL: opensURL,
                                   intent: intent, parameters: parameters, service: service, result: result))
    }

    /// The reply when the ask ran out of time between stages.
    func timedOut(_ ask: PluginAsk) -> AssistantReply {
        AssistantReply(code: .failure, dialog: "Sorry, that took too long. Please try again.", result: nil)
    }
}

extension PluginStage {
    var next: PluginStage? {
        switch self {
        case .resolve: .confirm
        case .confirm: .handle
        case .handle: nil
        }
    }
}
