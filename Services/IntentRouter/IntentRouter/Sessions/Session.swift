import Messages

/// What an open session waits for.
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

    /// The intent the session belongs to.
    public var intent: Intent {
        switch self {
        case .fuel(let search, _): search
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
        case .confirmForget: nil
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
    public var expiresAt: ContinuousClock.Instant
}
