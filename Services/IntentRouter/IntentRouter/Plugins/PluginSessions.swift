import Foundation
import Messages

/// What an open plug-in session waits for.
enum PluginAwaiting: Equatable {
    /// A value for the parameter (needsValue).
    case value(String)
    /// One of the options for the parameter (disambiguation).
    case choice(String, [PluginOption])
    /// Yes or no (confirmationRequired).
    case confirmation
}

/// A conversation with a plug-in intent in progress.
struct PluginSession {
    let id: String
    let user: String
    let intent: String
    var parameters: [String: JSONValue]
    let awaiting: PluginAwaiting
    let location: Coordinate?
    /// When `location` was observed, when it is a last-known one.
    let locationAt: Date?
    /// The question as it was asked, to ask again after an answer that answers nothing.
    let question: AssistantReply
    var misunderstandings = 0
    var expiresAt: ContinuousClock.Instant
}

/// Open plug-in sessions in memory, bounded in number and age; ids look like the built-in ones.
final class PluginSessionStore {
    let timeToLive: Duration
    let maxSessions: Int
    private let now: () -> ContinuousClock.Instant
    private var sessions: [String: PluginSession] = [:]
    private let ids = SessionIDs()

    init(timeToLive: Duration, maxSessions: Int, now: @escaping () -> ContinuousClock.Instant) {
        self.timeToLive = timeToLive
        self.maxSessions = max(1, maxSessions)
        self.now = now
    }

    var count: Int { sessions.count }

    func open(user: String, intent: String, parameters: [String: JSONValue], awaiting: PluginAwaiting,
              location: Coordinate?, locationAt: Date? = nil,
              question: (String) -> AssistantReply) -> PluginSession {
        if sessions.count >= maxSessions { purgeExpired() }
        if sessions.count >= maxSessions, let oldest = sessions.values.min(by: { $0.expiresAt < $1.expiresAt }) {
            sessions[oldest.id] = nil
        }
        let id = ids.next()
        let session = PluginSession(id: id, user: user, intent: intent, parameters: parameters, awaiting: awaiting,
                                    location: location, locationAt: locationAt, question: question(id),
                                    expiresAt: now() + timeToLive)
        sessions[id] = session
        return session
    }

    /// The live session `id` of `user`, or nil.
    func find(_ id: String, user: String) -> PluginSession? {
        guard let session = sessions[id], session.user == user else { return nil }
        guard session.expiresAt > now() else {
            sessions[id] = nil
            return nil
        }
        return session
    }

    func keep(_ session: PluginSession) {
        var renewed = session
        renewed.expiresAt = now() + timeToLive
        sessions[session.id] = renewed
    }

    func close(_ id: String) {
        sessions[id] = nil
    }

    func purgeExpired() {
        let current = now()
        sessions = sessions.filter { $0.value.expiresAt > current }
    }
}
