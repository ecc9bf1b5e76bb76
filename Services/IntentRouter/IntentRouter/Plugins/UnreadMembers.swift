import Foundation
import Messages

/// The members of a `plugin.register` or `plugin.reply` frame the router does not read, by where
/// they are (`heartbeat_ms`, `intents[0].usesLocaton`, `dialogue`): `plugin.registered` lists a
/// registration's as `warnings`, the router's log a reply's, so a misspelt member is found (it was
/// taken silently and its setting left at the default: plug-in QA; "dialogue" made "Done.").
enum UnreadMembers {
    private static let register: Set<String> = ["v", "type", "service", "instance", "heartbeatMs", "intents"]
    private static let intent: Set<String> = ["name", "parameters", "phrases", "stages", "usesLocation", "help"]
    private static let parameter: Set<String> = ["name", "type", "values"]
    private static let value: Set<String> = ["value", "synonyms"]
    private static let reply: Set<String> = ["v", "type", "id", "result", "dialog", "parameter", "options", "value",
                                             "snippet", "opensURL", "parameters"]
    private static let option: Set<String> = ["value", "title", "synonyms"]
    private static let snippet: Set<String> = ["title", "subtitle", "freshness", "price", "id", "postcode", "lat", "lng",
                                               "pricePence", "stale", "priceOutlier"]
    /// At most this many are named.
    static let limit = 10
    /// A plug-in instance's first answers read for them, and the largest read.
    static let repliesChecked = 5
    static let maxCheckedBytes = 16 << 10

    /// A `plugin.register` frame's.
    static func of(_ payload: Data) -> [String] {
        guard let top = object(payload) else { return [] }
        var found = unread(top, register, at: "")
        for (i, intentObject) in objects(top["intents"]) {
            found += unread(intentObject, intent, at: "intents[\(i)].")
            for (p, parameterObject) in objects(intentObject["parameters"]) {
                found += unread(parameterObject, parameter, at: "intents[\(i)].parameters[\(p)].")
                for (n, valueObject) in objects(parameterObject["values"]) {
                    found += unread(valueObject, value, at: "intents[\(i)].parameters[\(p)].values[\(n)].")
                }
            }
        }
        return Array(found.prefix(limit))
    }

    /// A `plugin.reply` frame's (its `parameters` hold the service's own names: not checked).
    static func ofReply(_ payload: Data) -> [String] {
        guard let top = object(payload) else { return [] }
        var found = unread(top, reply, at: "")
        if case .object(let card)? = top["snippet"] { found += unread(card, snippet, at: "snippet.") }
        for (i, optionObject) in objects(top["options"]) { found += unread(optionObject, option, at: "options[\(i)].") }
        return Array(found.prefix(limit))
    }

    private static func object(_ payload: Data) -> [String: JSONValue]? {
        guard case .object(let top)? = try? JSONCoding.decode(JSONValue.self, from: payload, allowingRepeatedNames: true)
        else { return nil }
        return top
    }

    /// `object`'s members not in `known`, each named with `place` before it.
    private static func unread(_ object: [String: JSONValue], _ known: Set<String>, at place: String) -> [String] {
        object.keys.sorted().filter { !known.contains($0) }.map { place + $0 }
    }

    private static func objects(_ value: JSONValue?) -> [(Int, [String: JSONValue])] {
        guard case .array(let items)? = value else { return [] }
        return items.enumerated().compactMap { index, item in
            if case .object(let object) = item { return (index, object) }
            return nil
        }
    }
}
