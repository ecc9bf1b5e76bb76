import Messages

/// What the handle stage does for a resolved, confirmed intent.
public enum Action: Sendable, Equatable {
    /// `within`: the search's own radius (a bare number in the user's unit); nil for the user's.
    case findCheapest(FuelCode, directions: Bool, within: SpokenRadius? = nil)
    /// The nearest station selling the fuel (`lookup.nearest`), otherwise as `findCheapest`.
    case findNearest(FuelCode, directions: Bool, within: SpokenRadius? = nil)
    /// A bare number is read in the user's unit (and range-checked) when handled.
    case setRadius(SettingUpdate<SpokenRadius>)
    case setUnit(SettingUpdate<DistanceUnit>)
    case forgetLocation
    /// The user's radius and unit, read back.
    case readSettings
    /// Directions to the station an answer named ("take me there"), from what it said.
    case directionsTo(RenderRequest)
    /// An answer said again ("say that again").
    case sayAgain(RenderRequest)
}

/// Something to say that needs no backend data: a question, an explanation, a refusal.
public struct Prompt: Sendable, Equatable {
    public var code: AssistantCode
    public var outcome: DialogOutcome
    public var word: String?
    public var radiusMiles: Double?
    /// The unit to say distances in; nil for the user's own (read when said, for the prompts that
    /// give the radius limits).
    public var unit: DistanceUnit?

    public init(code: AssistantCode, outcome: DialogOutcome, word: String? = nil, radiusMiles: Double? = nil,
                unit: DistanceUnit? = nil) {
        self.code = code
        self.outcome = outcome
        self.word = word
        self.radiusMiles = radiusMiles
        self.unit = unit
    }

    /// Whether the words give the radius limits, so they are said in the user's unit.
    public var speaksRadiusLimits: Bool { outcome == .askRadius || outcome == .radiusOutOfRange }
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
    /// The answer to a question is handled with the question still open (`session`): refused
    /// when handled (a bare radius read in the user's unit), it is asked again; else it closes.
    public var questionStaysIfRefused = false
    /// A search handled with a follow-up session (`session`) that, refused when handled for its
    /// radius (a bare number too far in the user's unit), leaves this follow-up instead: the
    /// conversation it came from, or the search without its radius, for "within 20 then".
    public var followUpIfRefused: Session?

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
    /// The resolved parameters as the reply shows them (`null` for a cleared setting; a bare
    /// radius as `radius` until the user's unit turns it into `miles`).
    var parameters: [String: JSONValue] {
        switch self {
        case .findCheapest(let fuel, _, let within?), .findNearest(let fuel, _, let within?):
            ["fuel": .string(fuel.rawValue)]
                .merging(within.explicitMiles.map { ["miles": .number(SpokenRadius.shown($0))] }
                    ?? ["radius": .number(within.amount)]) { $1 }
        case .findCheapest(let fuel, _, nil), .findNearest(let fuel, _, nil): ["fuel": .string(fuel.rawValue)]
        case .setRadius(.set(let radius)):
            radius.explicitMiles.map { ["miles": .number(SpokenRadius.shown($0))] } ?? ["radius": .number(radius.amount)]
        case .setRadius(.clear): ["miles": .null]
        case .setUnit(.set(let unit)): ["unit": .string(unit.rawValue)]
        case .setUnit(.clear): ["unit": .null]
        case .forgetLocation, .readSettings: [:]
        case .directionsTo(let answered), .sayAgain(let answered): answered.fuel.map { ["fuel": .string($0)] } ?? [:]
        }
    }
}
