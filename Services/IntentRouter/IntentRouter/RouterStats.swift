import Messages

/// The router's own `sys.stats` figures: asks by intent, code and outcome, fallbacks.
struct RouterStats {
    private(set) var asksByIntent: [String: UInt64] = [:]
    private(set) var asksByCode: [String: UInt64] = [:]
    private(set) var asksByOutcome: [String: UInt64] = [:]
    private(set) var deadlineMisses: UInt64 = 0

    mutating func record(intent: String?, code: AssistantCode, outcome: DialogOutcome?) {
        asksByIntent[intent ?? "none", default: 0] += 1
        asksByCode[code.rawValue, default: 0] += 1
        asksByOutcome[outcome?.rawValue ?? "none", default: 0] += 1
    }

    /// An ask a plug-in intent answered (it has no dialog outcome).
    mutating func record(intent: String?, code: AssistantCode) {
        asksByIntent[intent ?? "none", default: 0] += 1
        asksByCode[code.rawValue, default: 0] += 1
        asksByOutcome["plugin", default: 0] += 1
    }

    mutating func recordDeadlineMiss() {
        deadlineMisses += 1
    }

    static func counts(_ table: [String: UInt64]) -> JSONValue {
        .object(table.mapValues { .number(Double($0)) })
    }
}
