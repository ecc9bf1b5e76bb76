import Foundation
/// Where every service is: one set of endpoints shared by every binary (contract v1).
///
/// Each setting comes from a flag, else an environment variable, else the default.
public struct Topology: Sendable, Equatable {
    public var router: String
    public var ingest: String
    public var ingestPub: String
    public var lookup: String
    public var location: String
    public var dialog: String
    public var dataDir: String

    /// One row of the contract's topology table.
    public struct Setting: Sendable {
        public let flag: String
        public let environment: String
        public let defaultValue: String
        public let help: String
        let keyPath: WritableKeyPath<Topology, String> & Sendable
    }

    public static let settings: [Setting] = [
        Setting(flag: "--router", environment: "FUELBOARD_ROUTER", defaultValue: "tcp://127.0.0.1:5550",
                help: "intent-router endpoint", keyPath: \.router),
        Setting(flag: "--ingest", environment: "FUELBOARD_INGEST", defaultValue: "tcp://127.0.0.1:5551",
                help: "price-ingest request endpoint", keyPath: \.ingest),
        Setting(flag: "--ingest-pub", environment: "FUELBOARD_INGEST_PUB", defaultValue: "tcp://127.0.0.1:5552",
                help: "price-ingest update publisher", keyPath: \.ingestPub),
        Setting(flag: "--lookup", environment: "FUELBOARD_LOOKUP", defaultValue: "tcp://127.0.0.1:5553",
                help: "fuel-lookup endpoint", keyPath: \.lookup),
        Setting(flag: "--location", environment: "FUELBOARD_LOCATION", defaultValue: "tcp://127.0.0.1:5554",
                help: "location-cache endpoint", keyPath: \.location),
        Setting(flag: "--dialog", environment: "FUELBOARD_DIALOG", defaultValue: "tcp://127.0.0.1:5555",
                help: "dialog-renderer endpoint", keyPath: \.dialog),
        Setting(flag: "--data-dir", environment: "FUELBOARD_DATA_DIR", defaultValue: "./var",
                help: "directory for persistent files (created if missing)", keyPath: \.dataDir),
    ]

    public init() {
        router = ""; ingest = ""; ingestPub = ""; lookup = ""; location = ""; dialog = ""; dataDir = ""
        for setting in Topology.settings { self[keyPath: setting.keyPath] = setting.defaultValue }
    }

    /// Resolves every setting: flag, else environment, else default. Endpoints are validated.
    public init(arguments: ParsedArguments, environment: [String: String]) throws(ConfigurationError) {
        self.init()
        for setting in Topology.settings {
            let value = arguments.value(setting.flag) ?? environment[setting.environment] ?? setting.defaultValue
            if setting.keyPath != \Topology.dataDir {
                try Endpoint.validate(value, setting: "\(setting.flag) / \(setting.environment)")
            } else if value.isEmpty {
                throw ConfigurationError("--data-dir / FUELBOARD_DATA_DIR must not be empty")
            }
            self[keyPath: setting.keyPath] = value
        }
    }

    /// The options every binary accepts for the topology, for `--help` and parsing.
    public static var options: [OptionSpec] {
        settings.map { OptionSpec($0.flag, value: $0.flag == "--data-dir" ? "DIR" : "URL",
                                  help: "\($0.help) [$\($0.environment), default \($0.defaultValue)]") }
    }
}

/// Endpoint syntax checks, so a typo fails at start-up with exit 64 instead of at first use.
public enum Endpoint {
    /// The endpoints of a setting: one, or several replicas separated by commas.
    public static func list(_ setting: String) -> [String] {
        setting.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Checks one endpoint, or several separated by commas (replicas a client spreads calls over).
    public static func validate(_ endpoint: String, setting: String) throws(ConfigurationError) {
        let replicas = endpoint.split(separator: ",", omittingEmptySubsequences: false)
        if replicas.count > 1 {
            for replica in replicas { try validateOne(String(replica).trimmingCharacters(in: .whitespaces), setting: setting) }
            return
        }
        try validateOne(endpoint, setting: setting)
    }

    /// Refuses two endpoints one service binds when they are the same one (the second bind failed
    /// at the start with "Address already in use", after --check-config had passed both).
    public static func validateDistinct(_ first: (setting: String, endpoint: String),
                                        _ second: (setting: String, endpoint: String)) throws(ConfigurationError) {
        guard first.endpoint == second.endpoint, !first.endpoint.hasSuffix(":*") else { return }
        throw ConfigurationError("\(first.setting) and \(second.setting) are both '\(first.endpoint)': each needs its own")
    }

    /// `*`, a numeric IPv4 or IPv6 address (IPv6 in brackets or not), the name of one of this
    /// host's network interfaces, or a name that resolves (`localhost`), as libzmq's bind takes.
    static func isBindableHost(_ host: String) -> Bool {
        if host == "*" { return true }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, bare, &v4) == 1 || inet_pton(AF_INET6, bare, &v6) == 1 { return true }
        if if_nametoindex(bare) != 0 { return true }
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        defer { if let found { freeaddrinfo(found) } }
        return getaddrinfo(bare, nil, &hints, &found) == 0
    }

    /// Checks the one endpoint a service binds: a list is for clients (which replica would this be?).
    public static func validateBind(_ endpoint: String, setting: String) throws(ConfigurationError) {
        if endpoint.contains(",") {
            throw ConfigurationError("\(setting): '\(endpoint)' lists several endpoints; a service binds one "
                + "(a list is for clients: give each replica its own --bind)")
        }
        try validateOne(endpoint, setting: setting)
        if endpoint.hasPrefix("tcp://"), let colon = endpoint.lastIndex(of: ":") {
            let host = endpoint[endpoint.index(endpoint.startIndex, offsetBy: 6)..<colon]
            guard isBindableHost(String(host)) else {
                // libzmq said "No such device" at the start, after --check-config had passed it
                // (operator QA).
                throw ConfigurationError("\(setting): '\(host)' in '\(endpoint)' is neither an address, a network "
                    + "interface of this host nor a name that resolves: bind an address (0.0.0.0, 127.0.0.1), "
                    + "an interface (eth0) or *")
            }
        }
    }

    static func validateOne(_ endpoint: String, setting: String) throws(ConfigurationError) {
        if let scheme = ["inproc://", "ipc://"].first(where: endpoint.hasPrefix) {
            if endpoint.count > scheme.count { return }
        } else if endpoint.hasPrefix("tcp://") {
            let rest = endpoint.dropFirst("tcp://".count)
            if let colon = rest.lastIndex(of: ":") {
                let host = rest[..<colon], port = rest[rest.index(after: colon)...]
                if !host.isEmpty, port == "*" || (Int(port).map { (1...65535).contains($0) } ?? false) {
                    return
                }
            }
        }
        throw ConfigurationError("\(setting): '\(endpoint)' is not an endpoint (expected tcp://HOST:PORT, ipc://PATH or inproc://NAME)")
    }
}
