import Foundation

/// `assistant.ask` body (contract v1): one utterance from one user.
public struct AssistantAskRequest: Codable, Sendable {
    public var user: String
    public var utterance: String
    /// Where the user is now; stored as their last-known location.
    public var location: Coordinate?
    /// The id from a previous reply, to answer its question.
    public var session: String?
    /// BCP 47 locale for the spoken answer; default en-GB.
    public var locale: String?
    /// Render as if it were this time.
    public var now: Date?

    public init(user: String, utterance: String, location: Coordinate? = nil, session: String? = nil,
                locale: String? = nil, now: Date? = nil) {
        self.user = user
        self.utterance = utterance
        self.location = location
        self.session = session
        self.locale = locale
        self.now = now
    }
}

/// `assistant.run` body: runs an intent directly, as a shortcut does.
///
/// `parameters` by intent: CheapestFuel / DirectionsToCheapestFuel `{"fuel": "B7"}` (code or
/// word; absent means E10); SetSearchRadius `{"miles": 10}` (`null` clears it back to the
/// default, absent asks for it); SetDistanceUnit `{"unit": "km"}` (`null` clears, absent asks).
public struct AssistantRunRequest: Codable, Sendable {
    public var user: String
    /// `CheapestFuel`, `DirectionsToCheapestFuel`, `SetSearchRadius`, `SetDistanceUnit`,
    /// `ForgetMyLocation` or `Help`.
    public var intent: String
    public var parameters: [String: JSONValue]?
    public var location: Coordinate?
    public var session: String?
    public var locale: String?
    public var now: Date?
    /// True skips the confirm stage (the user already confirmed, e.g. in a shortcut's own UI).
    public var confirmed: Bool?

    public init(user: String, intent: String, parameters: [String: JSONValue]? = nil, location: Coordinate? = nil,
                session: String? = nil, locale: String? = nil, now: Date? = nil, confirmed: Bool? = nil) {
        self.user = user
        self.intent = intent
        self.parameters = parameters
        self.location = location
        self.session = session
        self.locale = locale
        self.now = now
        self.confirmed = confirmed
    }
}

/// How an ask ended, after SiriKit's resolution and response codes.
public enum AssistantCode: String, Codable, Sendable, CaseIterable {
    case success
    case failure
    /// A value is missing: answer the question in the same session.
    case needsValue
    case disambiguation
    /// Say yes or no in the same session.
    case confirmationRequired
    case cancelled
}

/// `assistant.ask` / `assistant.run` reply body.
public struct AssistantReply: Codable, Sendable, Equatable {
    public var code: AssistantCode
    /// What is spoken.
    public var dialog: String
    /// The short answer.
    public var value: String?
    public var snippet: Snippet?
    /// Maps directions URL (directions only).
    public var opensURL: String?
    /// Present while the conversation continues: send it back with the next utterance.
    public var session: String?
    /// The intent understood (absent when nothing was understood).
    public var intent: String?
    /// The intent's parameters as resolved (`{"fuel": "B7"}`; `null` for a setting cleared).
    public var parameters: [String: JSONValue]?
    /// What was spoken, as a `DialogOutcome` name (`found`, `noLocation`, `askFuel`...).
    public var outcome: DialogOutcome?
    /// For `needsValue`: the parameter asked for (`fuel`, `miles`, `unit`).
    public var needs: String?
    /// For an ask answered by a plug-in intent service: the service, its typed result
    /// (`inProgress` is spoken with code `success`) and the options of a disambiguation.
    public var service: String?
    public var result: PluginResultCode?
    public var options: [PluginOption]?
    /// The services this answer was given without, being down or late (absent when none):
    /// `dialog-renderer` (the router's built-in English spoke) and `location-cache` (the user's
    /// settings were not read, nor the position the ask carried stored).
    public var degraded: [String]?

    public init(code: AssistantCode, dialog: String, value: String? = nil, snippet: Snippet? = nil,
                opensURL: String? = nil, session: String? = nil, intent: String? = nil,
                parameters: [String: JSONValue]? = nil, outcome: DialogOutcome? = nil, needs: String? = nil,
                service: String? = nil, result: PluginResultCode? = nil, options: [PluginOption]? = nil,
                degraded: [String]? = nil) {
        self.code = code
        self.dialog = dialog
        self.value = value
        self.snippet = snippet
        self.opensURL = opensURL
        self.session = session
        self.intent = intent
        self.parameters = parameters
        self.outcome = outcome
        self.needs = needs
        self.service = service
        self.result = result
        self.options = options
        self.degraded = degraded
    }
}
