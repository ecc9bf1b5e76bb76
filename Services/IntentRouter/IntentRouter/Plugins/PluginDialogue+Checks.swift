import Foundation
import Messages

/// What the dialogue checks in a service's answers, and how it words failures.
extension PluginDialogue {
    // MARK: - Answers the router can use

    /// Why an answer cannot be used, in a sentence.
    struct Fault: Error {
        let reason: String
    }

    /// The declared parameter a `kind` answer (needsValue, disambiguation) asks for, or why it names
    /// none: what was missing, and which are declared.
    static func askedParameter(_ kind: String, _ result: PluginResult, _ grammar: PluginIntentGrammar)
        -> Result<PluginParameter, Fault> {
        if let name = result.parameter, let declared = grammar.parameterTypes[name] { return .success(declared) }
        let names = grammar.parameterTypes.keys.sorted()
        let listed = names.isEmpty ? "the intent declares none" : "declared: " + names.joined(separator: ", ")
        guard let name = result.parameter else {
            return .failure(Fault(reason: "\(kind) has no \"parameter\" member naming the parameter to ask for (\(listed))"))
        }
        return .failure(Fault(reason: "\(kind) names \"\(name.prefix(40))\", not a declared parameter (\(listed))"))
    }

    /// Why a disambiguation cannot be asked, or nil when it can: it must name a declared parameter
    /// and offer 1 to 20 options with distinct titles (the user picks by title), each with a value
    /// the parameter can take (a pick becomes its value).
    static func disambiguationFault(_ result: PluginResult, _ grammar: PluginIntentGrammar) -> String? {
        let declared: PluginParameter
        switch askedParameter("disambiguation", result, grammar) {
        case .success(let parameter): declared = parameter
        case .failure(let fault): return fault.reason
        }
        let options = result.options ?? []
        guard (1 ... maxOptions).contains(options.count) else {
            return "disambiguation needs 1 to \(maxOptions) options, not \(options.count)"
        }
        var seen: [[String]: String] = [:]
        for option in options {
            let words = UtteranceNormalizer.words(option.title)
            if let earlier = seen[words] {
                return "disambiguation options need distinct titles (\"\(earlier.prefix(60))\" and "
                    + "\"\(option.title.prefix(60))\" are said alike)"
            }
            seen[words] = option.title
        }
        for option in options {
            do throws(ServiceError) {
                _ = try PluginIntentGrammar.check(value(of: option, for: declared), for: declared, of: grammar.name)
            } catch {
                return "disambiguation option value \"\(option.value.prefix(60))\" does not fit: \(error.message)"
            }
        }
        return nil
    }

    /// The highest `pricePence` a card may show: £1,000, far past any price per litre or kWh.
    static let maxSnippetPence = 100_000.0

    /// Why a card cannot be shown, or nil when it can: its numbers must be ones a client can draw
    /// (a lat 1e308 put the pin nowhere, a pricePence -5 said "-5p"). `lat` and `lng` come as a
    /// pair that is a place; `pricePence` is from 0 to `maxSnippetPence`.
    static func snippetFault(_ snippet: Snippet?) -> String? {
        guard let snippet else { return nil }
        switch (snippet.lat, snippet.lng) {
        case (nil, nil): break
        case (let lat?, let lng?) where Coordinate(lat: lat, lng: lng).isOnEarth: break
        default:
            return "snippet lat and lng must come together, lat from -90 to 90 and lng from -180 to 180"
        }
        if let pence = snippet.pricePence, !(0 ... maxSnippetPence).contains(pence) {
            return "snippet pricePence must be from 0 to \(Int(maxSnippetPence))"
        }
        return nil
    }

    // MARK: - Spoken failures

    static func failureDialog(_ failure: PluginCallFailure, service: String) -> String {
        let name = spoken(service)
        switch failure {
        case .noInstance: return "Sorry, the \(name) service isn't running right now. Please try again later."
        case .timeout: return "Sorry, the \(name) service didn't answer in time. Please try again."
        case .gone: return "Sorry, the \(name) service stopped before it could answer. Please try again."
        case .unreadable: return "Sorry, the \(name) service gave an answer I can't use."
        }
    }

    /// What picking `option` makes the parameter: a number for a `number` parameter (nil when its
    /// value is not one), the value's text otherwise.
    static func value(of option: PluginOption, for parameter: PluginParameter?) -> JSONValue {
        guard parameter?.type == .number else { return .string(option.value) }
        return Double(option.value).map { JSONValue.number($0) } ?? .string(option.value)
    }

    /// An absolute `http` or `https` URL with a host, of at most `maxURLLength` characters, with
    /// no user name or password (`https://user:pass@...` passes credentials, or dresses one host
    /// up as another) and no spaces or control characters (a NUL, a line break: a QA pass's link
    /// carried "\u{0}\r\nX: y").
    static func isWebURL(_ text: String) -> Bool {
        guard text.utf8.count <= maxURLLength,
              !text.unicodeScalars.contains(where: { $0.value <= 0x20 || (0x7F...0x9F).contains($0.value) }),
              let url = URL(string: text), let scheme = url.scheme?.lowercased(),
              scheme == "https" || scheme == "http", let host = url.host, !host.isEmpty,
              url.user == nil, url.password == nil else { return false }
        return true
    }

    static let maxURLLength = 2048

    /// The failure as the log line gives it.
    static func logReason(_ failure: PluginCallFailure) -> String {
        switch failure {
        case .noInstance: return "no instance running"
        case .timeout: return "no answer by the deadline"
        case .gone: return "instance left or expired with the request in flight"
        case .unreadable: return "reply could not be read"
        }
    }

    /// A service name as it is said: "station-prices" is "station prices".
    static func spoken(_ service: String) -> String {
        UtteranceNormalizer.words(service.replacingOccurrences(of: "-", with: " ")
            .replacingOccurrences(of: "_", with: " ")).joined(separator: " ")
    }
}
