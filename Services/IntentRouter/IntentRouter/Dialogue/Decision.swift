import Messages

/// What the handle stage does for a resolved, confirmed intent.
public enum Action: Sendable, Equatable {
    case findCheapest(FuelCode, directions: Bool)
    case setRadius(SettingUpdate<Double>)
    case setUnit(SettingUpdate<DistanceUnit>)
    case forgetLocation
}

/// Something to say that needs no backend data: a question, an explanation, a refusal.
public struct Prompt: Sendable, Equatable {
    public var code: AssistantCode
    public var outcome: DialogOutcome
    public var word: String?
    public var radiusMiles: Double?

    public init(code: AssistantCode, outcome: DialogOutcome, word: String? = nil, radiusMiles: Double? = nil) {
        self.code = code
        self.outcome = outcome
        self.word = word
        self.radiusMiles = radiusMiles
    }
}

/// The resolve and confirm stages' verdict on one utterance: say something now, or handle.
public struct Decision: Sendable, Equatable {
    public enum Step: Sendable, Equatable {
        case say(Prompt)
        case handle(Action)
    }

    public var step: Step
    /// The intent understood (nil when nothing was).
    public var intent: Intent?
    public var parameters: [String: JSONValue]?
    /// The open session's id while the conversation continues.
    public var session: String?
    /// For needsValue: the parameter asked for.
    public var needs: String?
    /// The user's location from the utterance or its session, for the handle stage.
    public var location: Coordinate?

    public init(step: Step, intent: Intent?, parameters: [String: JSONValue]? = nil, session: String? = nil,
                needs: String? = nil, location: Coordinate? = nil) {
        self.step = step
        self.intent = intent
        self.parameters = parameters
        self.session = session
        self.needs = needs
        self.location = location
    }

    /// The prompt, when the step is one.
    public var prompt: Prompt? {
        if case .say(let prompt) = step { return prompt }
        return nil
    }

    /// The action, when the step is one.
    public var action: Action? {
        if case .handle(let action) = step { return action }
        return nil
    }
}

extension Action {
    /// The resolved parameters as the reply shows them (`null` for a cleared setting).
    var parameters: [String: JSONValue] {
        switch self {
        case .findCheapest(let fuel, _): ["fuel": .string(fuel.rawValue)]
        case .setRadius(.set(let miles)): ["miles": .number(miles)]
        case .setRadius(.clear): ["miles": .null]
        case .setUnit(.set(let unit)): ["unit": .string(unit.rawValue)]
        case .setUnit(.clear): ["unit": .null]
        case .forgetLocation: [:]
        }
    }
}
