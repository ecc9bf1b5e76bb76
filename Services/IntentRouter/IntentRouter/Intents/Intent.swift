import Messages

/// The intents the router understands (their wire names are the App Intents' type names).
public enum Intent: String, Sendable, CaseIterable, Codable {
    case cheapestFuel = "CheapestFuel"
    case directionsToCheapestFuel = "DirectionsToCheapestFuel"
    case setSearchRadius = "SetSearchRadius"
    case setDistanceUnit = "SetDistanceUnit"
    case forgetMyLocation = "ForgetMyLocation"
    /// "What can you ask?"
    case help = "Help"
    /// The nearest station selling a fuel, and directions to it.
    case nearestFuel = "NearestFuel"
    case directionsToNearestFuel = "DirectionsToNearestFuel"
    /// "Thanks FuelBoard"
    case thanks = "Thanks"
    /// "What's my search radius?": the radius and unit read back.
    case mySettings = "MySettings"

    /// A station search answered with directions.
    var givesDirections: Bool { self == .directionsToCheapestFuel || self == .directionsToNearestFuel }
    /// A search for a station: the cheapest or the nearest, with or without directions.
    var searchesStations: Bool {
        self == .cheapestFuel || self == .directionsToCheapestFuel || searchesNearest
    }
    /// A station search for the nearest rather than the cheapest.
    var searchesNearest: Bool { self == .nearestFuel || self == .directionsToNearestFuel }

    /// The station search for the nearest or the cheapest, with or without directions.
    static func search(nearest: Bool, directions: Bool) -> Intent {
        switch (nearest, directions) {
        case (false, false): .cheapestFuel
        case (false, true): .directionsToCheapestFuel
        case (true, false): .nearestFuel
        case (true, true): .directionsToNearestFuel
        }
    }
}

/// One parameter as understood, before the resolve stage judges it.
public enum ParameterValue<Value: Sendable & Equatable>: Sendable, Equatable {
    /// Not said: the resolve stage asks for it.
    case missing
    /// Said, but not something FuelBoard can serve ("hydrogen").
    case unsupported(String)
    case value(Value)
}

/// An intent with its parameters, from an utterance or from `assistant.run`.
public enum IntentCall: Sendable, Equatable {
    /// `within`: a radius for this search only ("... within 10 miles"); nil for the user's own.
    case cheapestFuel(ParameterValue<FuelCode>, within: SpokenRadius? = nil)
    case directionsToCheapestFuel(ParameterValue<FuelCode>, within: SpokenRadius? = nil)
    case nearestFuel(ParameterValue<FuelCode>, within: SpokenRadius? = nil)
    case directionsToNearestFuel(ParameterValue<FuelCode>, within: SpokenRadius? = nil)
    /// Set to a radius (with its unit, or a bare number in the user's unit), or cleared back to the default.
    case setSearchRadius(ParameterValue<SettingUpdate<SpokenRadius>>)
    case setDistanceUnit(ParameterValue<SettingUpdate<DistanceUnit>>)
    case forgetMyLocation
    case help
    case thanks
    case mySettings

    public var intent: Intent {
        switch self {
        case .cheapestFuel: .cheapestFuel
        case .directionsToCheapestFuel: .directionsToCheapestFuel
        case .nearestFuel: .nearestFuel
        case .directionsToNearestFuel: .directionsToNearestFuel
        case .setSearchRadius: .setSearchRadius
        case .setDistanceUnit: .setDistanceUnit
        case .forgetMyLocation: .forgetMyLocation
        case .help: .help
        case .thanks: .thanks
        case .mySettings: .mySettings
        }
    }

    /// The parameters as the reply shows them and the sentence tests check them: `fuel`,
    /// `unsupportedFuel`, `miles` (a number or `clear`), `radius` (a bare number, in the user's unit),
    /// `unit` (`km`, `miles` or `clear`).
    public var slotSummary: [String: String] {
        switch self {
        case .cheapestFuel(let fuel, let within), .directionsToCheapestFuel(let fuel, let within),
             .nearestFuel(let fuel, let within), .directionsToNearestFuel(let fuel, let within):
            var summary: [String: String] = [:]
            switch fuel {
            case .missing: break
            case .unsupported(let word): summary["unsupportedFuel"] = word
            case .value(let code): summary["fuel"] = code.rawValue
            }
            if let within {
                if let miles = within.explicitMiles { summary["miles"] = NumberWords.format(SpokenRadius.shown(miles)) }
                else { summary["radius"] = NumberWords.format(within.amount) }
            }
            return summary
        case .setSearchRadius(let radius):
            switch radius {
            case .missing: return [:]
            case .unsupported(let text): return ["miles": text]
            case .value(.set(let radius)):
                if let miles = radius.explicitMiles { return ["miles": NumberWords.format(SpokenRadius.shown(miles))] }
                return ["radius": NumberWords.format(radius.amount)]
            case .value(.clear): return ["miles": "clear"]
            }
        case .setDistanceUnit(let unit):
            switch unit {
            case .missing: return [:]
            case .unsupported(let text): return ["unit": text]
            case .value(.set(let unit)): return ["unit": unit.rawValue]
            case .value(.clear): return ["unit": "clear"]
            }
        case .forgetMyLocation, .help, .thanks, .mySettings:
            return [:]
        }
    }
}

extension IntentCall {
    /// The fuel a station search asks for (nil for other intents).
    var fuel: ParameterValue<FuelCode>? {
        switch self {
        case .cheapestFuel(let fuel, _), .directionsToCheapestFuel(let fuel, _), .nearestFuel(let fuel, _),
             .directionsToNearestFuel(let fuel, _):
            fuel
        default:
            nil
        }
    }

    /// A station search's own radius, if it names one.
    var searchRadius: SpokenRadius? {
        switch self {
        case .cheapestFuel(_, let within), .directionsToCheapestFuel(_, let within), .nearestFuel(_, let within),
             .directionsToNearestFuel(_, let within):
            within
        default:
            nil
        }
    }

    /// The call of the station search `intent` (cheapest or nearest, with or without directions).
    static func search(_ intent: Intent, _ fuel: ParameterValue<FuelCode>, within: SpokenRadius?) -> IntentCall {
        switch intent {
        case .directionsToCheapestFuel: .directionsToCheapestFuel(fuel, within: within)
        case .nearestFuel: .nearestFuel(fuel, within: within)
        case .directionsToNearestFuel: .directionsToNearestFuel(fuel, within: within)
        default: .cheapestFuel(fuel, within: within)
        }
    }
}
