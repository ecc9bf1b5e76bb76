import Foundation
import Messages

/// One connected replica of an intent service.
final class PluginInstance {
    let routingID: Data
    let service: String
    let instance: String
    let heartbeat: Duration
    var lastHeard: ContinuousClock.Instant
    var lastSent: ContinuousClock.Instant
    var inFlight = 0
    var handled = 0
    /// Registered in another connection's place (the same instance id from a new connection), or
    /// on a connection that was: it keeps the declarations it took over, even once alone.
    let tookOver: Bool
    /// How many times in a row this instance id was registered from a new connection while the
    /// old one was still registered, each within ten heartbeats of the last: past one or two, two
    /// processes share the id and take each other's place at every heartbeat.
    var takeovers = 0
    let registeredAt: ContinuousClock.Instant
    /// Replies of its checked for members the router does not read (its first few only), and
    /// whether that was logged (once an instance).
    var repliesCheckedForMembers = 0
    var unreadMembersLogged = false

    init(routingID: Data, service: String, instance: String, heartbeat: Duration, now: ContinuousClock.Instant,
         tookOver: Bool = false) {
        self.routingID = routingID
        self.service = service
        self.instance = instance
        self.heartbeat = heartbeat
        self.tookOver = tookOver
        registeredAt = now
        lastHeard = now
        lastSent = now
    }

    /// Silent for this long: expired (Paranoid Pirate's liveness of three intervals).
    var expiresAfter: Duration { heartbeat * PluginRegistry.liveness }
}

/// A service name, its intents and its live replicas (none: every instance is gone, and asks for
/// its intents fail at once until one registers again).
final class PluginServiceEntry {
    let name: String
    var intents: [PluginIntentGrammar]
    var instances: [PluginInstance] = [] {
        didSet { stoppedAt = instances.isEmpty ? stoppedAt ?? .now : nil }
    }
    /// When its last instance went; nil while one runs.
    private(set) var stoppedAt: ContinuousClock.Instant?
    private var next = 0

    init(name: String, intents: [PluginIntentGrammar]) {
        self.name = name
        self.intents = intents
    }

    /// The next replica in turn (round robin), or nil when none is left.
    func pick() -> PluginInstance? {
        guard !instances.isEmpty else { return nil }
        next = (next + 1) % instances.count
        return instances[next]
    }
}

/// Who is registered: services by name, instances by routing id, intents by name. Applies the
/// collision rules; knows nothing of sockets.
final class PluginRegistry {
    static let liveness = 3
    static let defaultHeartbeat: Duration = .seconds(1)
    static let heartbeatRange = 100 ... 10_000
    static let maxIntentsPerService = 20
    static let maxServices = 200

    let appName: String
    let builtIns: PhraseMatcher
    private(set) var services: [String: PluginServiceEntry] = [:]
    private(set) var byRoutingID: [Data: PluginInstance] = [:]
    /// Services in registration order (earlier services win ties when matching).
    private var order: [String] = []
    /// Filler phrases that are values of some registered intent (`fillerValues`), worked out again
    /// when the intents change (nil until then).
    private var fillerValuesCache: Set<String>?
    private let normalizer = UtteranceNormalizer()

    init(appName: String, builtIns: PhraseMatcher) {
        self.appName = appName
        self.builtIns = builtIns
    }

    /// What a registration did: the new instance, and any instance it replaced (same service and
    /// instance id on a new connection), whose requests must be failed.
    struct Admission {
        let instance: PluginInstance
        let replaced: PluginInstance?
        /// A stopped service forgotten to make room (the router held `maxServices`).
        var forgotten: String? = nil
        /// Stopped services forgotten because this one claimed all their intents.
        var claimedFrom: [String] = []
    }

    /// What `forget(service:)` did.
    enum Forgetting: Equatable {
        case forgotten
        case unknown
        /// Instances still run; only a stopped service is forgotten.
        case running(instances: Int)
    }

    func register(_ message: PluginRegister, routingID: Data, now: ContinuousClock.Instant)
        throws(PluginRefusal) -> Admission
    {
        guard PluginIntentGrammar.isName(message.service, maxLength: 60, allowDots: true) else {
            throw .bad("service name must be 1 to 60 letters, digits, '_', '-' or '.'")
        }
        guard !message.instance.isEmpty, message.instance.count <= 100 else {
            throw .bad("instance must be 1 to 100 characters")
        }
        guard !message.intents.isEmpty, message.intents.count <= Self.maxIntentsPerService else {
            throw .bad("a service registers 1 to \(Self.maxIntentsPerService) intents")
        }
        let names = message.intents.map(\.name)
        guard Set(names).count == names.count else { throw .bad("an intent name is declared twice") }
        let entry = services[message.service]
        let running = entry?.intents.map(\.declaration) ?? []
        if let existing = byRoutingID[routingID], existing.service == message.service,
           existing.instance == message.instance,
           PluginReplicaCheck.difference(running: running, replica: message.intents) == nil {
            existing.lastHeard = now
            return Admission(instance: existing, replaced: nil)
        }
        // Registrations held by other connections, this instance id's own earlier one included:
        // while any is there, the declarations stand. Only a connection alone with its service may
        // change them, and not one that took its place by instance id (which `router.services`
        // lists): a takeover with the same declarations could otherwise turn on `usesLocation` in
        // its next frame and be sent users' locations.
        var forgotten: String?
        var claimed: [String] = []
        let others = entry?.instances.filter { $0.routingID != routingID } ?? []
        let own = byRoutingID[routingID].flatMap { $0.service == message.service ? $0 : nil }
        let takesOver = others.contains { $0.instance == message.instance } || own?.tookOver == true
        if !others.isEmpty || takesOver {
            if let difference = PluginReplicaCheck.difference(running: running, replica: message.intents) {
                throw PluginReplicaCheck.refusal(service: message.service, difference)
            }
        } else {
            guard entry != nil || services.count < Self.maxServices || longestStopped() != nil else {
                throw .bad("the router holds \(Self.maxServices) running services already")
            }
            let grammars = try message.intents.map { (intent) throws(PluginRefusal) in
                try PluginIntentGrammar(intent, service: message.service, appName: appName)
            }
            try checkCollisions(grammars, service: message.service)
            if entry == nil, services.count >= Self.maxServices, let stopped = longestStopped() {
                _ = forget(service: stopped)
                forgotten = stopped
            }
            for grammar in grammars { claimed += releaseOrphan(intent: grammar.name, to: message.service) }
            fillerValuesCache = nil
            if let entry {
                entry.intents = grammars
            } else {
                services[message.service] = PluginServiceEntry(name: message.service, intents: grammars)
                order.append(message.service)
            }
        }
        var replaced: PluginInstance?
        if let old = byRoutingID[routingID] {
            remove(old)
            replaced = old
        }
        if let twin = services[message.service]?.instances.first(where: { $0.instance == message.instance }) {
            remove(twin)
            replaced = twin
        }
        let milliseconds = (message.heartbeatMs ?? 1000).clamped(to: Self.heartbeatRange)
        let instance = PluginInstance(routingID: routingID, service: message.service, instance: message.instance,
                                      heartbeat: .milliseconds(milliseconds), now: now, tookOver: takesOver)
        if let replaced, replaced.instance == message.instance, replaced.routingID != routingID {
            // A restart now and then is one takeover; one at every heartbeat is a run of them.
            let quick = now - replaced.registeredAt < replaced.heartbeat * 10
            instance.takeovers = quick ? replaced.takeovers + 1 : 1
        }
        services[message.service]?.instances.append(instance)
        byRoutingID[routingID] = instance
        return Admission(instance: instance, replaced: replaced, forgotten: forgotten, claimedFrom: claimed)
    }

    /// Forgets a stopped service: its intents and phrases go (asks for them are no longer told
    /// it is not running), and its name and intents are free for anyone.
    func forget(service name: String) -> Forgetting {
        guard let entry = services[name] else { return .unknown }
        guard entry.instances.isEmpty else { return .running(instances: entry.instances.count) }
        services[name] = nil
        order.removeAll { $0 == name }
        fillerValuesCache = nil
        return .forgotten
    }

    /// The service stopped the longest ago, if any is stopped.
    private func longestStopped() -> String? {
        let stopped = order.compactMap { name in services[name]?.stoppedAt.map { (name, $0) } }
        return stopped.min { $0.1 < $1.1 }?.0
    }

    /// Takes an instance out (bye, expiry, replacement). Its service and intents stay known.
    func remove(_ instance: PluginInstance) {
        byRoutingID[instance.routingID] = nil
        services[instance.service]?.instances.removeAll { $0 === instance }
    }

    /// What plug-in phrases match in an utterance: its words without fillers, except fillers that
    /// are values of a registered intent ("book it for today": "today" was dropped, and the phrase
    /// never matched though registration accepted it, QA).
    func content(of heard: NormalizedUtterance) -> [String] {
        if fillerValuesCache == nil {
            fillerValuesCache = services.values.reduce(into: Set<String>()) { all, entry in
                for grammar in entry.intents { all.formUnion(grammar.fillerValues) }
            }
        }
        guard let kept = fillerValuesCache, !kept.isEmpty else { return heard.content }
        return normalizer.removingSkipPhrases(heard.words, keeping: kept)
    }

    /// Every registered plug-in intent's name, sorted.
    /// The sentences the help answer adds: each running service's intents' `help` (a stopped
    /// one's intents cannot be asked), services in the order they registered, each sentence once,
    /// at most `maxHelpSentences`.
    var helpSentences: [String] {
        var sentences: [String] = []
        for service in order {
            guard let entry = services[service], entry.stoppedAt == nil else { continue }
            for help in entry.intents.compactMap(\.help) where !sentences.contains(help) {
                sentences.append(help)
                if sentences.count == Self.maxHelpSentences { return sentences }
            }
        }
        return sentences
    }

    /// The most plug-in sentences one help answer says (a long list is not listened to).
    static let maxHelpSentences = 5

    var intentNames: [String] {
        services.values.flatMap { $0.intents.map(\.name) }.sorted()
    }

    /// The intent's grammar and its service's entry, whoever serves it now.
    func intent(named name: String) -> (grammar: PluginIntentGrammar, entry: PluginServiceEntry)? {
        for service in order {
            guard let entry = services[service] else { continue }
            if let grammar = entry.intents.first(where: { $0.name == name }) { return (grammar, entry) }
        }
        return nil
    }

    /// The plug-in intent an utterance asks for (best match over every service).
    /// A running service's intent first: one whose service has no instance left (its phrases are
    /// kept so its users hear it is not running) only when no running service takes the words. A
    /// service that replaced a stopped one with the same phrase lost to it (a re-check).
    func recognize(_ words: [String]) -> (grammar: PluginIntentGrammar, match: PhraseMatch)? {
        var best: (grammar: PluginIntentGrammar, match: PhraseMatch)?
        var bestStopped: (grammar: PluginIntentGrammar, match: PhraseMatch)?
        for service in order {
            guard let entry = services[service] else { continue }
            for grammar in entry.intents {
                guard let match = grammar.matcher.match(words) else { continue }
                if entry.instances.isEmpty {
                    if bestStopped.map({ PhraseMatcher.isBetter(match, than: $0.match) }) ?? true {
                        bestStopped = (grammar, match)
                    }
                } else if best.map({ PhraseMatcher.isBetter(match, than: $0.match) }) ?? true {
                    best = (grammar, match)
                }
            }
        }
        return best ?? bestStopped
    }

    var listing: [RegisteredService] {
        let now = ContinuousClock.now
        return order.compactMap { services[$0] }.map { entry in
            RegisteredService(service: entry.name, intents: entry.intents.map(\.name),
                              locationIntents: entry.intents.filter(\.usesLocation).map(\.name),
                              instances: entry.instances.map {
                RegisteredInstance(instance: $0.instance, heartbeatMs: $0.heartbeat.wholeMilliseconds,
                                   requestsInFlight: $0.inFlight, requestsHandled: $0.handled,
                                   lastHeardMs: (now - $0.lastHeard).wholeMilliseconds,
                                   takeovers: $0.takeovers > 0 ? $0.takeovers : nil)
            }, stoppedMs: entry.stoppedAt.map { (now - $0).wholeMilliseconds })
        }
    }

    // MARK: - Collisions

    /// Refuses an intent name another live service owns, and a phrase that already means a
    /// built-in or another service's intent (or whose intent would take another's phrases).
    ///
    /// Every sample is matched against every other intent: each sample's words are made a set once
    /// (`PhraseMatcher.match(_:present:)`), and a matcher skips a sample lacking a word all its
    /// phrases need, and a phrase one that has a word it cannot take. (Hashing the words anew for each matcher, 20 intents of 50 phrases took the
    /// router's loop 2 s: plug-in QA.)
    private func checkCollisions(_ grammars: [PluginIntentGrammar], service: String) throws(PluginRefusal) {
        let others = order.filter { $0 != service }.compactMap { services[$0] }
        let sampleWords = grammars.map { $0.samples.map { Set($0) } }
        // Within the service: a sample of one intent that another of its intents also takes could
        // only ever reach one of the two.
        for (grammar, sets) in zip(grammars, sampleWords) {
            for mine in grammars where mine.name != grammar.name {
                if let index = grammar.samples.indices.first(where: {
                    mine.matcher.match(grammar.samples[$0], present: sets[$0], screening: true) != nil
                }) {
                    let sample = grammar.samples[index]
                    throw .bad("intents \(grammar.name) and \(mine.name) both take "
                        + "\"\(sample.joined(separator: " "))\": give each its own phrases")
                }
            }
        }
        for (grammar, sets) in zip(grammars, sampleWords) {
            if let owner = others.first(where: { $0.intents.contains { $0.name == grammar.name } }),
               !owner.instances.isEmpty {
                throw .conflict("intent \(grammar.name) is already registered by service \(owner.name)")
            }
            for (sample, present) in zip(grammar.samples, sets) {
                if let match = builtIns.match(sample, present: present, screening: true) {
                    throw .conflict("intent \(grammar.name): \"\(sample.joined(separator: " "))\" already means "
                        + "the built-in intent \(match.label)")
                }
                for other in others where !other.instances.isEmpty {
                    for theirs in other.intents where theirs.matcher.match(sample, present: present, screening: true) != nil {
                        throw .conflict("intent \(grammar.name): \"\(sample.joined(separator: " "))\" already means "
                            + "intent \(theirs.name) of service \(other.name)")
                    }
                }
            }
            for other in others where !other.instances.isEmpty {
                for theirs in other.intents {
                    if let sample = theirs.samples.first(where: { grammar.matcher.match($0) != nil }) {
                        throw .conflict("intent \(grammar.name) would also take \"\(sample.joined(separator: " "))\", "
                            + "which means intent \(theirs.name) of service \(other.name)")
                    }
                }
            }
        }
    }

    /// A service whose every instance is gone gives up an intent another service now claims.
    /// Returns the services forgotten for it (every intent they had claimed).
    private func releaseOrphan(intent name: String, to service: String) -> [String] {
        var forgotten: [String] = []
        for other in order where other != service {
            guard let entry = services[other], entry.instances.isEmpty else { continue }
            entry.intents.removeAll { $0.name == name }
            if entry.intents.isEmpty, forget(service: other) == .forgotten { forgotten.append(other) }
        }
        return forgotten
    }
}

extension Comparable {
    func clamped(to range: ClosedRange<Self>) -> Self { min(max(self, range.lowerBound), range.upperBound) }
}
