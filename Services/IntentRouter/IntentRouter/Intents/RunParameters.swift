import Foundation
import Messages

/// `assistant.run` parameters to an intent call, as a shortcut would pass them.
public enum RunParameters {
    /// A shortcut run without a fuel uses unleaded, as the phone app does.
    public static let defaultFuel = FuelCode.e10

    /// Builds the call; a bad intent name or a parameter of the wrong type is `bad_request`. The
    /// refusal of an unknown name lists the built-in intents and `pluginIntents`.
    public static func call(intent name: String, parameters: [String: JSONValue]?,
                            pluginIntents: [String] = []) throws(ServiceError) -> IntentCall {
        guard let intent = Intent(rawValue: name) else {
            var known = Intent.allCases.map(\.rawValue).joined(separator: ", ")
            if !pluginIntents.isEmpty {
                let shown = pluginIntents.prefix(20).joined(separator: ", ")
                known += "; plug-in intents: \(shown)" + (pluginIntents.count > 20 ? " and \(pluginIntents.count - 20) more" : "")
            }
            throw .badRequest("unknown intent '\(name.prefix(60))': use one of \(known)")
        }
        let parameters = parameters ?? [:]
        // A parameter the intent does not take is refused, not ignored: {"radius": 1} searched the
        // stored 5 miles and answered success.
        let takes = takenParameters(intent)
        if let unknown = parameters.keys.sorted().first(where: { !takes.contains($0) }) {
            let list = takes.isEmpty ? "none" : takes.joined(separator: ", ")
            throw .badRequest("\(intent.rawValue) takes no parameter \"\(unknown.prefix(40))\" (it takes: \(list))")
        }
        switch intent {
        case .cheapestFuel: return .cheapestFuel(try fuel(parameters["fuel"]), within: try within(parameters))
        case .directionsToCheapestFuel, .nearestFuel, .directionsToNearestFuel:
            return .search(intent, try fuel(parameters["fuel"]), within: try within(parameters))
        case .setSearchRadius: return .setSearchRadius(try miles(parameters))
        case .setDistanceUnit: return .setDistanceUnit(try unit(parameters))
        case .forgetMyLocation: return .forgetMyLocation
        case .help: return .help
        case .thanks: return .thanks
        case .mySettings: return .mySettings
        }
    }

    /// The parameters each intent takes.
    static func takenParameters(_ intent: Intent) -> [String] {
        switch intent {
        case .cheapestFuel, .directionsToCheapestFuel, .nearestFuel, .directionsToNearestFuel: ["fuel", "miles", "radius"]
        case .setSearchRadius: ["miles", "radius"]
        case .setDistanceUnit: ["unit"]
        case .forgetMyLocation, .help, .thanks, .mySettings: []
        }
    }

    /// A code ("B7") or a word ("diesel"); absent or null means the default fuel.
    static func fuel(_ value: JSONValue?) throws(ServiceError) -> ParameterValue<FuelCode> {
        switch value {
        case nil, .null?:
            return .value(defaultFuel)
        case .string(let text)?:
            if let code = FuelCode(code: text.trimmingCharacters(in: .whitespaces)) { return .value(code) }
            let words = UtteranceNormalizer.words(text)
            for entry in Vocabulary.fuels {
                for phrase in entry.phrases where UtteranceNormalizer.words(phrase) == words {
                    return entry.value.flatMap(FuelCode.init(code:)).map { .value($0) } ?? .unsupported(text)
                }
            }
            return .unsupported(String(text.prefix(40)))
        default:
            throw .badRequest("parameter \"fuel\" must be a fuel code such as \"B7\"")
        }
    }

    /// `radius`: a number in the user's own unit, as a reply gives a bare one ("within 20") before
    /// the unit is known, so a reply's parameters run again as they were answered. Never with `miles`.
    static func bareRadius(_ parameters: [String: JSONValue]) throws(ServiceError) -> SpokenRadius? {
        guard let value = parameters["radius"] else { return nil }
        guard parameters["miles"] == nil else { throw .badRequest("give \"miles\" or \"radius\", not both") }
        guard case .number(let amount) = value, amount.isFinite else {
            throw .badRequest("parameter \"radius\" must be a number in the user's unit (miles or km)")
        }
        return .bare(amount)
    }

    /// A search's own radius: `miles`, a number of miles, or `radius` in the user's unit; absent or
    /// null searches the user's radius.
    static func within(_ parameters: [String: JSONValue]) throws(ServiceError) -> SpokenRadius? {
        if let bare = try bareRadius(parameters) { return bare }
        switch parameters["miles"] {
        case nil, .null?: return nil
        case .number(let miles)? where miles.isFinite: return .miles(miles)
        default: throw .badRequest("parameter \"miles\" must be a number of miles to search within, or left out")
        }
    }

    /// `miles`: a number sets (in miles, whatever the user's unit), `null` clears, absent asks.
    static func miles(_ parameters: [String: JSONValue])
        throws(ServiceError) -> ParameterValue<SettingUpdate<SpokenRadius>>
    {
        if let bare = try bareRadius(parameters) { return .value(.set(bare)) }
        switch parameters["miles"] {
        case nil: return .missing
        case .null?: return .value(.clear)
        case .number(let miles)? where miles.isFinite: return .value(.set(.miles(miles)))
        default: throw .badRequest("parameter \"miles\" must be a number of miles, or null to reset it")
        }
    }

    /// `unit`: "km" or "miles" sets, `null` clears, absent asks.
    static func unit(_ parameters: [String: JSONValue])
        throws(ServiceError) -> ParameterValue<SettingUpdate<DistanceUnit>>
    {
        switch parameters["unit"] {
        case nil: return .missing
        case .null?: return .value(.clear)
        case .string(let text)?:
            let words = UtteranceNormalizer.words(text)
            for entry in Vocabulary.units {
                for phrase in entry.phrases where UtteranceNormalizer.words(phrase) == words {
                    if let value = entry.value, let unit = DistanceUnit(rawValue: value) { return .value(.set(unit)) }
                }
            }
            throw .badRequest("parameter \"unit\" must be \"km\" or \"miles\", or null to reset it")
        default:
            throw .badRequest("parameter \"unit\" must be \"km\" or \"miles\", or null to reset it")
        }
    }
}
