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

extension PluginSession: ExpiringSession {}

/// Open plug-in sessions in memory, bounded in number, per user and in age (a `SessionTable`, as
/// the built-in questions'); ids look like the built-in ones.
final class PluginSessionStore {
    let timeToLive: Duration
    private let now: () -> ContinuousClock.Instant
    private var sessions: SessionTable<PluginSession>
    private let ids = SessionIDs()

    init(timeToLive: Duration, maxSessions: Int, maxPerUser: Int = 4, now: @escaping () -> ContinuousClock.Instant) {
        self.timeToLive = timeToLive
        sessions = SessionTable(maxSessions: maxSessions, maxPerUser: maxPerUser)
        self.now = now
    }

    var maxSessions: Int { sessions.maxSessions }
    var count: Int { sessions.count }
    /// Sessions dropped, still live, to make room in a full table.
    var endedEarly: UInt64 { sessions.endedEarly }

    func open(user: String, intent: String, parameters: [String: JSONValue], awaiting: PluginAwaiting,
              location: Coordinate?, locationAt: Date? = nil,
              question: (String) -> AssistantReply) -> PluginSession {
        let id = ids.next()
        let current = now()
        let session = PluginSession(id: id, user: user, intent: intent, parameters: parameters, awaiting: awaiting,
                                    location: location, locationAt: locationAt, question: question(id),
                                    expiresAt: current + timeToLive)
        sessions.insert(session, now: current)
        return session
    }

    /// The live session `id` of `user`, or nil.
    func find(_ id: String, user: String) -> PluginSession? {
        sessions.find(id, user: user, now: now())
    }

    func keep(_ session: PluginSession) {
        sessions.keep(session, until: now() + timeToLive)
    }

    func close(_ id: String) {
        sessions.remove(id)
    }

    func purgeExpired() {
        sessions.purgeExpired(now: now())
    }
}
