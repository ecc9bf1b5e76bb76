import Messages

/// What a stage handler receives: the stage, the intent, the parameters so far and the user's
/// context (`PluginRequest` on the wire).
public typealias IntentRequest = PluginRequest

/// One stage's code: takes the request, returns a typed result (`.success(...)`,
/// `.needsValue(...)`, `.disambiguation(...)`, `.confirmationRequired(...)`, `.failure(...)`,
/// `.inProgress(...)`).
public typealias StageHandler = @Sendable (IntentRequest) -> PluginResult

/// One intent a service offers: its declaration (name, typed parameters, phrases) and its code.
/// Leave out `resolve` or `confirm` and the router skips that stage. With `usesLocation`, requests
/// carry where the user is (`request.location`: the ask's, else the last-known one, when known);
/// without, they never do. `help` is the sentence the assistant's help answer adds for it.
public struct IntentDefinition: Sendable {
    public let declaration: PluginIntent
    public let resolve: StageHandler?
    public let confirm: StageHandler?
    public let handle: StageHandler

    public init(_ name: String, parameters: [PluginParameter] = [], phrases: [String], usesLocation: Bool = false,
                help: String? = nil, resolve: StageHandler? = nil, confirm: StageHandler? = nil,
                handle: @escaping StageHandler) {
        var stages: [PluginStage] = []
        if resolve != nil { stages.append(.resolve) }
        if confirm != nil { stages.append(.confirm) }
        stages.append(.handle)
        declaration = PluginIntent(name: name, parameters: parameters.isEmpty ? nil : parameters, phrases: phrases,
                                   stages: stages, usesLocation: usesLocation ? true : nil, help: help)
        self.resolve = resolve
        self.confirm = confirm
        self.handle = handle
    }

    /// Runs the stage the router asks for.
    func run(_ request: IntentRequest) -> PluginResult {
        switch request.stage {
        case .resolve: resolve?(request) ?? .success()
        case .confirm: confirm?(request) ?? .success()
        case .handle: handle(request)
        }
    }
}

extension PluginRequest {
    /// A parameter's text value (enum values, free words), or nil when absent.
    public func string(_ name: String) -> String? {
        parameters[name]?.stringValue
    }

    /// True when the user has already said yes: a handle stage that asks for confirmation must
    /// then do the work instead of asking again.
    public var isConfirmed: Bool { confirmed == true }

    /// A parameter's number, or nil when absent.
    public func number(_ name: String) -> Double? {
        if case .number(let value)? = parameters[name] { return value }
        return nil
    }
}

extension PluginParameter {
    /// An enum parameter from `value: [synonyms]` pairs.
    public static func oneOf(_ name: String, _ values: [(String, [String])]) -> PluginParameter {
        PluginParameter(name: name, type: .enum, values: values.map { PluginValue($0.0, synonyms: $0.1) })
    }
}
