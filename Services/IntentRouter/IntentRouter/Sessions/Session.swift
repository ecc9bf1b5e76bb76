import Messages

/// What an open session waits for: the answer to a question, or a follow-up.
public enum Awaiting: Sendable, Equatable {
    /// Which fuel, for the station search `search` (CheapestFuel, NearestFuel or their
    /// directions) within the user's radius or `within` one of its own.
    case fuel(search: Intent, within: SpokenRadius? = nil)
    /// How many miles.
    case radius
    /// Miles or kilometres.
    case unit
    /// Yes or no to forgetting the location.
    case confirmForget
    /// Nothing asked: a station search has been answered, and what the user says next may build
    /// on it ("take me there", "what about petrol", "and within 10 miles").
    case followUp(search: Intent, fuel: FuelCode, within: SpokenRadius?)

    /// The intent the session belongs to.
    public var intent: Intent {
        switch self {
        case .fuel(let search, _), .followUp(let search, _, _): search
        case .radius: .setSearchRadius
        case .unit: .setDistanceUnit
        case .confirmForget: .forgetMyLocation
        }
    }

    /// The parameter a needsValue reply asks for.
    public var parameterName: String? {
        switch self {
        case .fuel: "fuel"
        case .radius: "miles"
        case .unit: "unit"
        case .confirmForget, .followUp: nil
        }
    }
}

/// One conversation in progress: whose it is, what it waits for, until when.
public struct Session: Sendable, Equatable {
    public let id: String
    public let user: String
    public var awaiting: Awaiting
    /// The location the first utterance carried, used when the answer carries none.
    public var location: Coordinate?
    /// Answers that did not answer the question so far.
    public var misunderstandings: Int
    /// For a follow-up: the station the answer named, as it was said ("take me there" goes to it,
    /// not to whatever a new search would find).
    public var answered: RenderRequest? = nil
    public var expiresAt: ContinuousClock.Instant
}
