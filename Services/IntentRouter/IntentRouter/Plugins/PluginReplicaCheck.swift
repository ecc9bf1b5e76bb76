import Messages

/// Whether a new replica declares exactly what the running replicas of its service declared. The
/// router serves one declaration per service, so a replica that differs would have its own
/// silently ignored (and, for `usesLocation`, receive a location it never asked for).
enum PluginReplicaCheck {
    /// What differs between the running declarations and a new replica's, as a sentence naming the
    /// intent, or nil when they are the same. Intents are compared by name in any order, stage
    /// lists as sets (absent: all three), `usesLocation` absent as false, parameters absent as none,
    /// `help` as written.
    static func difference(running: [PluginIntent], replica: [PluginIntent]) -> String? {
        let mine = Dictionary(running.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let theirs = Dictionary(replica.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        if let missing = mine.keys.sorted().first(where: { theirs[$0] == nil }) {
            return "intent \(missing) is not declared by this replica"
        }
        if let extra = theirs.keys.sorted().first(where: { mine[$0] == nil }) {
            return "intent \(extra) is not declared by the running replicas"
        }
        for name in mine.keys.sorted() {
            guard let old = mine[name], let new = theirs[name] else { continue }
            if let field = differingField(old, new) { return "intent \(name) differs in \(field)" }
        }
        return nil
    }

    /// The first field (in declaration order) whose meaning differs, described with both values
    /// where they are short.
    private static func differingField(_ old: PluginIntent, _ new: PluginIntent) -> String? {
        if old.phrases != new.phrases { return "phrases" }
        if (old.parameters ?? []) != (new.parameters ?? []) { return "parameters" }
        let oldStages = Set(old.stages ?? PluginStage.allCases), newStages = Set(new.stages ?? PluginStage.allCases)
        if oldStages != newStages {
            return "stages (running: \(listed(oldStages)); this replica: \(listed(newStages)))"
        }
        let oldLocation = old.usesLocation ?? false, newLocation = new.usesLocation ?? false
        if oldLocation != newLocation {
            return "usesLocation (running: \(oldLocation); this replica: \(newLocation))"
        }
        // The help answer says one sentence per intent: a replica's other one would never be said
        // (nor checked: a rolling restart changing only `help` looked accepted and changed nothing).
        if old.help != new.help { return "help" }
        return nil
    }

    private static func listed(_ stages: Set<PluginStage>) -> String {
        stages.sorted { $0.order < $1.order }.map(\.rawValue).joined(separator: ", ")
    }

    /// The refusal for a replica whose declarations differ: what differs, and how to change them.
    static func refusal(service: String, _ difference: String) -> PluginRefusal {
        .conflict("service \(service) is running with other declarations: \(difference); a replica must declare "
            + "exactly the same intents. To change them, stop the running replicas first (a clean stop sends "
            + "plugin.bye; a killed one expires after 3 heartbeats), then register the new ones")
    }
}
