import Messages

extension PluginIntentGrammar {
    /// Checks the parameters an `assistant.run` gives a plug-in intent, as `RunParameters` checks a
    /// built-in's: only the names it declares, numbers of 0 or more for `number` (as said), text for `string`, one of the
    /// values (or a synonym, read as its value) for `enum`; a `string`'s synonym is read as its value.
    /// Returns them with each listed value in its declared form.
    func runParameters(_ given: [String: JSONValue]) throws(ServiceError) -> [String: JSONValue] {
        var checked: [String: JSONValue] = [:]
        for (name, value) in given {
            guard let parameter = parameterTypes[name] else {
                let declared = parameterTypes.keys.sorted()
                let list = declared.isEmpty ? "none" : declared.joined(separator: ", ")
                throw .badRequest("\(self.name) takes no parameter \"\(name.prefix(40))\" (it takes: \(list))")
            }
            checked[name] = try Self.check(value, for: parameter, of: self.name)
        }
        return checked
    }

    /// `value` as `parameter` takes it (a listed value's synonym as the value), or `bad_request`
    /// saying what it must be. One check for every way a value comes: `assistant.run`, a stage's
    /// reply, a disambiguation's options (they disagreed: a run's "purple" for a `string` with
    /// values was passed on, then refused in the service's echo: plug-in QA).
    static func check(_ value: JSONValue, for parameter: PluginParameter, of intent: String)
        throws(ServiceError) -> JSONValue
    {
        switch (parameter.type, value) {
        case (_, .null):
            return value
        case (.number, .number(let number)) where number.isFinite && number >= 0:
            return value
        case (.number, _):
            // A said number has no sign ("minus 5" is no number): a shortcut's is held to the same.
            throw .badRequest("\(intent): \(parameter.name) must be a number of 0 or more")
        case (.string, .string(let text)):
            // Free words; a listed value's synonym is read as the value, as when said.
            return listed(text, in: parameter).map(JSONValue.string) ?? value
        case (.enum, .string(let text)):
            guard let match = listed(text, in: parameter) else {
                let listed = (parameter.values ?? []).prefix(10).map(\.value).joined(separator: ", ")
                throw .badRequest("\(intent): \(parameter.name) must be one of \(listed)")
            }
            return .string(match)
        case (.string, _), (.enum, _):
            throw .badRequest("\(intent): \(parameter.name) must be text")
        }
    }

    /// The declared value `text` names (itself or a synonym, in any case), if any.
    private static func listed(_ text: String, in parameter: PluginParameter) -> String? {
        let folded = text.lowercased()
        return parameter.values?.first { option in
            option.value.lowercased() == folded || (option.synonyms ?? []).contains { $0.lowercased() == folded }
        }?.value
    }
}
