import Foundation
import Messages
import ServiceKit

/// One ask in flight: who asked, what was decided, its deadlines and how to answer it.
final class AskContext {
    /// "ask" or "run".
    let kind: String
    let requestID: String
    let user: String
    let locale: String?
    let now: Date?
    /// The position the ask itself carried (stored as the user's last-known one).
    let reportedLocation: Coordinate?
    let decision: Decision
    let started: ContinuousClock.Instant
    /// When the user must have an answer.
    let deadline: ContinuousClock.Instant
    /// When data calls (location, preferences, lookup) give up, leaving time to render.
    let dataDeadline: ContinuousClock.Instant
    /// When a read of the user's preferences (radius, unit) gives up for the defaults: early, so a
    /// location-cache that hangs leaves the lookup its time rather than failing the whole ask.
    let preferencesDeadline: ContinuousClock.Instant
    /// When the render call gives up and the built-in English is spoken instead.
    let renderDeadline: ContinuousClock.Instant
    let responder: Responder
    private(set) var answered = false

    init(kind: String, requestID: String, user: String, locale: String?, now: Date?,
         reportedLocation: Coordinate? = nil, decision: Decision,
         started: ContinuousClock.Instant, budget: Duration, responder: Responder) {
        self.kind = kind
        self.requestID = requestID
        self.user = user
        self.locale = locale
        self.now = now
        self.reportedLocation = reportedLocation
        self.decision = decision
        self.started = started
        self.responder = responder
        deadline = started + budget
        let renderShare = min(budget / 3, .milliseconds(500))
        dataDeadline = deadline - renderShare
        preferencesDeadline = min(dataDeadline, started + budget / 4)
        renderDeadline = deadline - min(budget / 20, .milliseconds(50))
    }

    /// Marks the ask answered; false when it already was (a late completion after the watchdog).
    func markAnswered() -> Bool {
        guard !answered else { return false }
        answered = true
        return true
    }
}

/// What the handle stage found out, ready to be put into words.
struct Handled {
    let code: AssistantCode
    let render: RenderRequest
    /// The parameters the reply shows, when handling resolved them further than the decision did.
    var parameters: [String: JSONValue]?
    /// The decision's session is closed: the reply names none.
    var endsSession = false
    /// The parameter the question, still open, asks for again (a value refused when handled).
    var needsAgain: String?
    /// The session the reply names instead of the decision's (a follow-up put back after a refusal).
    var continuesIn: String?
    /// The backends the answer was reached without (`AssistantReply.degraded`).
    var degraded: [String] = []
    /// Sentences said after the rendered words (the plug-ins' own, in the help answer).
    var addedSentences: [String] = []

    init(_ code: AssistantCode, _ render: RenderRequest, needsAgain: String? = nil) {
        self.needsAgain = needsAgain
        self.code = code
        self.render = render
    }
}
