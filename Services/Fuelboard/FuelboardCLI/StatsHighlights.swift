import Foundation
import Messages

/// The figures of a service's `sys.stats` details an operator looks at first, as one line under
/// its summary in `fuelboard stats` (everything is in `--json` and `--prometheus`).
enum StatsHighlights {
    /// The line for service `name`, or nil when its details hold none of the figures.
    static func line(_ name: String, _ details: [String: JSONValue]) -> String? {
        let figures = StatsFigures(details)
        var parts: [String] = []
        switch name {
        case "price-ingest":
            if case .array(let feeds)? = details["feeds"] {
                let readings = feeds.map(StatsFigures.init)
                let stations = readings.compactMap { $0.number("stations") }.reduce(0, +)
                var part = "\(plural(Double(feeds.count), "feed")), \(plural(stations, "station"))"
                if let oldest = readings.compactMap({ $0.number("feedAgeHours") }).max() {
                    part += ", oldest feed " + age(hours: oldest) + " old"
                }
                // A feed that never worked has no age: without this it was in no summary at all. One
                // price-ingest polls FAILS; one it does not poll only had its last ingest fail, and
                // stays so until someone ingests it again (from an older price-ingest: all FAILING).
                func failing(polled: Bool) -> [String] {
                    feeds.compactMap { feed -> String? in
                        guard case .object(let fields) = feed, fields["failing"] == .bool(true),
                              (fields["polled"] != .bool(false)) == polled else { return nil }
                        return fields["retailer"]?.stringValue
                    }
                }
                func listed(_ names: [String]) -> String {
                    names.prefix(5).joined(separator: ", ") + (names.count > 5 ? " and \(names.count - 5) more" : "")
                }
                let polledFailing = failing(polled: true), lastIngestFailed = failing(polled: false)
                if !polledFailing.isEmpty { part += ", FAILING: " + listed(polledFailing) }
                if !lastIngestFailed.isEmpty { part += ", last ingest failed (not polled): " + listed(lastIngestFailed) }
                parts.append(part)
            }
            // Why commits fail (a full disk, a damaged file): it was in --json only (operator QA).
            if let failures = figures.number("commitFailures"), failures > 0 {
                let cause = details["lastCommitError"]?.stringValue.map { ": " + String($0.prefix(120)) } ?? ""
                parts.append("COMMITS FAILED \(count(failures))" + cause)
            }
        case "fuel-lookup":
            if let version = figures.number("version"), let stations = figures.number("stations") {
                parts.append("index v\(count(version)): \(plural(stations, "station"))" + replicaState(figures))
            }
        case "location-cache":
            if let users = figures.number("usersStored") {
                parts.append("\(plural(users, "user")), \(plural(figures.number("locationsStored") ?? 0, "location"))")
            }
            if let ttl = figures.number("ttlSeconds") {
                parts.append(ttl < 3600 ? String(format: "TTL %.0f min", ttl / 60) : String(format: "TTL %.0f h", ttl / 3600))
            }
        case "dialog-renderer":
            if case .array(let locales)? = details["locales"] {
                parts.append("locales " + locales.compactMap(\.stringValue).joined(separator: ", "))
            }
        case "intent-router":
            parts += routerParts(figures)
        default:
            break
        }
        if figures.bool("storeFileGone") == true {
            parts.append("STORE FILE GONE (deleted or replaced while running): restart it")
        }
        // Replies that never left: clients gone before their answers, or not reading them.
        if let undelivered = figures.number("repliesNotDelivered"), undelivered > 0 {
            let notReading = figures.number("clientsNotReading") ?? 0
            parts.append("replies not delivered \(count(undelivered))"
                         + (notReading > 0 ? " (\(plural(notReading, "client")) NOT READING)" : ""))
        }
        // Large replies held for clients that do not read them, and those refused past the bound.
        if let refused = figures.number("largeRepliesRefused"), refused > 0 {
            let unread = figures.number("unreadReplyBytes") ?? 0
            parts.append("large replies REFUSED \(count(refused)) (clients not reading theirs)"
                         + (unread > 0 ? String(format: ", %.0f MiB unread now", unread / 1_048_576) : ""))
        }
        if let rss = figures.object("memory")?.number("rssBytes") {
            parts.append(String(format: "RSS %.0f MiB", rss / 1_048_576))
        }
        return parts.isEmpty ? nil : "    " + parts.joined(separator: "; ")
    }

    /// ", in step with price-ingest", or why not: never loaded, price-ingest silent, snapshots failing.
    private static func replicaState(_ figures: StatsFigures) -> String {
        guard figures.bool("synced") != nil else { return "" }
        if let reason = LookupReadiness.notReadyReason(figures) { return ", NOT ready (\(reason))" }
        // Replicas older than `inStep` said only `synced`.
        guard let inStep = figures.bool("inStep"), !inStep else { return ", in step with price-ingest" }
        if let silence = figures.number("ingestHeardSecondsAgo"), silence >= 5 {
            return ", NOT in step (nothing from price-ingest for \(count(silence)) s)"
        }
        return ", NOT in step (resynchronising from price-ingest)"
    }

    private static func routerParts(_ figures: StatsFigures) -> [String] {
        var parts: [String] = []
        if let outcomes = figures.object("asksByOutcome") {
            let total = outcomes.values.values.compactMap(\.number).reduce(0, +)
            let each = outcomes.values.sorted { $0.key < $1.key }.compactMap { key, value in
                value.number.map { "\(key) \(count($0))" }
            }
            parts.append("asks \(count(total))" + (each.isEmpty ? "" : " (" + each.joined(separator: ", ") + ")"))
        }
        if let misses = figures.number("deadlineMisses") { parts.append("deadline misses \(count(misses))") }
        if let timeouts = figures.object("backendTimeouts") {
            let total = timeouts.values.values.compactMap(\.number).reduce(0, +)
            parts.append("backend timeouts \(count(total))")
        }
        // A backend down or failing is what an operator must not miss.
        if let down = figures.object("backendDown") {
            let names = down.values.filter { ($0.value.number ?? 0) > 0 }.map(\.key).sorted()
            if !names.isEmpty { parts.append("BACKEND DOWN: " + names.joined(separator: ", ")) }
        }
        if let unavailable = figures.object("backendUnavailable") {
            let total = unavailable.values.values.compactMap(\.number).reduce(0, +)
            if total > 0 { parts.append("backend calls unavailable \(count(total))") }
        }
        if let fallbacks = figures.number("fallbackDialogs"), fallbacks > 0 {
            parts.append("fallback dialogs \(count(fallbacks))")
        }
        if let plugins = figures.object("plugins") {
            var part = "plug-ins: \(plural(plugins.number("services") ?? 0, "service")), "
                + "\(plural(plugins.number("instances") ?? 0, "instance"))"
            let trouble = ["timeouts", "unreadableReplies", "expiries", "refusals"].compactMap { key in
                plugins.number(key).flatMap { $0 > 0 ? "\(key) \(count($0))" : nil }
            }
            if !trouble.isEmpty { part += " (" + trouble.joined(separator: ", ") + ")" }
            parts.append(part)
        }
        return parts
    }

    /// 1 -> "1 feed", 2100 -> "2,100 stations".
    static func plural(_ value: Double, _ one: String) -> String {
        "\(count(value)) " + (value == 1 ? one : one + "s")
    }

    /// 41.2 -> "41.2 h", 10026.4 -> "417.8 days".
    static func age(hours: Double) -> String {
        hours < 48 ? String(format: "%.1f h", hours) : String(format: "%.1f days", hours / 24)
    }

    /// 12345 -> "12,345".
    static func count(_ value: Double) -> String {
        let formatter = NumberFormatter()
        formatter.numberStyle = .decimal
        formatter.locale = Locale(identifier: "en_GB")
        formatter.maximumFractionDigits = 0
        return formatter.string(from: NSNumber(value: value)) ?? String(Int(value))
    }
}

/// Typed reads of a `sys.stats` details object.
struct StatsFigures {
    let values: [String: JSONValue]

    init(_ values: [String: JSONValue]) { self.values = values }

    init(_ value: JSONValue) {
        if case .object(let values) = value { self.values = values } else { values = [:] }
    }

    func number(_ key: String) -> Double? { values[key]?.number }

    func bool(_ key: String) -> Bool? {
        if case .bool(let value)? = values[key] { return value }
        return nil
    }

    func object(_ key: String) -> StatsFigures? {
        guard case .object(let values)? = values[key] else { return nil }
        return StatsFigures(values)
    }
}

extension JSONValue {
    /// The number, when this is one.
    var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }
}
