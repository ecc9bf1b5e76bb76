import Foundation
import Messages

/// The members of a `plugin.register` frame the router does not read, by where they are
/// (`heartbeat_ms`, `intents[0].usesLocaton`): `plugin.registered` lists them as `warnings`, so a
/// misspelt member is found (it was taken silently and its setting left at the default: plug-in QA).
enum UnreadMembers {
    private static let register: Set<String> = ["v", "type", "service", "instance", "heartbeatMs", "intents"]
    private static let intent: Set<String> = ["name", "parameters", "phrases", "stages", "usesLocation", "help"]
    private static let parameter: Set<String> = ["name", "type", "values"]
    private static let value: Set<String> = ["value", "synonyms"]
    /// At most this many are named.
    static let limit = 10

    static func of(_ payload: Data) -> [String] {
        guard case .object(let top)? = try? JSONCoding.decode(JSONValue.self, from: payload, allowingRepeatedNames: true)
        else { return [] }
        var found: [String] = []
        func check(_ object: [String: JSONValue], _ known: Set<String>, at place: String) {
            for key in object.keys.sorted() where !known.contains(key) { found.append(place + key) }
        }
        func objects(_ value: JSONValue?) -> [(Int, [String: JSONValue])] {
            guard case .array(let items)? = value else { return [] }
            return items.enumerated().compactMap { index, item in
                if case .object(let object) = item { return (index, object) }
                return nil
            }
        }
        check(top, register, at: "")
        for (i, intentObject) in objects(top["intents"]) {
            check(intentObject, intent, at: "intents[\(i)].")
            for (p, parameterObject) in objects(intentObject["parameters"]) {
                check(parameterObject, parameter, at: "intents[\(i)].parameters[\(p)].")
                for (n, valueObject) in objects(parameterObject["values"]) {
                    check(valueObject, value, at: "intents[\(i)].parameters[\(p)].values[\(n)].")
                }
            }
        }
        return Array(found.prefix(limit))
    }
}
