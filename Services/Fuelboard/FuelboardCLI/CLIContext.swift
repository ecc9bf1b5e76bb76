import Foundation
import Messages
import ServiceKit
import ZeroMQ

/// What every subcommand gets: its parsed options, the topology, output helpers, clients.
struct CLIContext {
    enum HelpRequested: Error { case help }

    let command: String
    var arguments: ParsedArguments
    let topology: Topology
    let json: Bool
    let timeout: Duration
    let zmq = Context()

    /// The services each command talks to, by their topology flag: its `--help` lists those only
    /// (`generate` talks to none, nor shows `--timeout`; nothing in the CLI uses `--data-dir` or `--ingest-pub`). Every
    /// topology flag is still accepted by every command, so one environment or wrapper serves all.
    static let endpointFlags: [String: Set<String>] = {
        let everyService: Set<String> = ["--router", "--ingest", "--lookup", "--location", "--dialog"]
        return ["ask": ["--router"], "plugins": ["--router"], "ingest": ["--ingest"], "lookup": ["--lookup"],
                "loadtest": ["--lookup", "--router", "--ingest", "--location"], "health": everyService,
                "stats": everyService, "generate": []]
    }()

    /// What `--help` lists for `command`: its own options, the topology flags it uses, the rest.
    static func shownOptions(_ own: [OptionSpec], command: String) -> [OptionSpec] {
        let used = endpointFlags[command] ?? Set(Topology.options.map(\.name))
        return own + commonOptions.filter { option in
            if option.name == "--timeout" { return !used.isEmpty }
            return !Topology.options.contains { $0.name == option.name } || used.contains(option.name)
        }.map { option in
            // ingest waits longer for a feed's reply unless told (IngestCommand.defaultFeedTimeout).
            guard command == "ingest", option.name == "--timeout" else { return option }
            return OptionSpec("--timeout", value: "DURATION", help: "deadline of each feed's reply (default "
                + "\(ServiceMain.secondsText(IngestCommand.defaultFeedTimeout)); the first ping's 5s)")
        }
    }

    /// The commands that take words besides options (`ask` an utterance, `ingest` a feed); the others
    /// refuse a stray word (exit 64) rather than run without it: `stats lookup` used to print every
    /// service's figures.
    static let takesArguments: Set<String> = ["ask", "ingest"]

    /// Options every subcommand accepts.
    static let commonOptions: [OptionSpec] = Topology.options + [
        OptionSpec("--json", help: "print results as JSON"),
        OptionSpec("--timeout", value: "DURATION", help: "per-request deadline (default 5s)"),
        OptionSpec("--help", help: "print this help and exit"),
    ]

    init(command: String, arguments: [String]) throws {
        self.command = command
        let spec = CLIContext.options(for: command)
        let allOptions = spec.options + Self.commonOptions
        // `-h` is `--help`, as people type it.
        let parsed = try ParsedArguments(arguments.map { $0 == "-h" ? "--help" : $0 }, options: allOptions)
        if parsed.has("--help") {
            print(HelpText(usage: "fuelboard \(command) \(spec.usage)", summary: spec.summary,
                           options: Self.shownOptions(spec.options, command: command)).rendered, terminator: "")
            throw HelpRequested.help
        }
        if !Self.takesArguments.contains(command), let stray = parsed.positionals.first {
            throw ConfigurationError("unexpected argument '\(stray)' (\(command) takes options only: see --help)")
        }
        self.arguments = parsed
        topology = try Topology(arguments: parsed, environment: ProcessInfo.processInfo.environment)
        json = parsed.has("--json")
        if let text = parsed.value("--timeout") {
            timeout = try ServiceMain.readDuration(text, option: "--timeout", atLeast: .nanoseconds(1), atMost: .seconds(7 * 86_400))
        } else {
            timeout = .seconds(5)
        }
    }

    /// Per-command options, usage and summary (kept beside each command).
    static func options(for command: String) -> (usage: String, summary: String, options: [OptionSpec]) {
        switch command {
        case "ask": AskCommand.spec
        case "ingest": IngestCommand.spec
        case "lookup": LookupCommand.spec
        case "health": HealthCommand.spec
        case "stats": StatsCommand.spec
        case "plugins": PluginsCommand.spec
        case "generate": GenerateCommand.spec
        case "loadtest": LoadTestCommand.spec
        default: ("", "", [])
        }
    }

    func client(_ endpoint: String, timeout: Duration? = nil, retries: Int = 1) throws -> RequestClient {
        try RequestClient(context: zmq, endpoint: endpoint, timeout: timeout ?? self.timeout, retries: retries)
    }

    /// Whether anything answers a `sys.ping` at `endpoint` within `timeout` (any reply will do:
    /// only a silent endpoint is given up on).
    func answers(_ endpoint: String, within timeout: Duration? = nil) -> Bool {
        serviceAnswering(endpoint, within: timeout) != nil
    }

    /// The name the service at `endpoint` gives in its `sys.ping` reply ("?" for a reply without
    /// one), or nil when nothing answers within `timeout`.
    func serviceAnswering(_ endpoint: String, within timeout: Duration? = nil) -> String? {
        guard let probe = try? client(endpoint, timeout: timeout, retries: 0),
              let reply = try? probe.callRaw(MessageType.sysPing.rawValue, EmptyBody()) else { return nil }
        return (try? JSONCoding.decode(Reply<PingBody>.self, from: reply))?.body?.service ?? "?"
    }

    /// Prints any encodable value as pretty JSON on stdout.
    func printJSON<T: Encodable>(_ value: T) throws {
        let encoder = JSONCoding.makeEncoder()
        encoder.outputFormatting.insert(.prettyPrinted)
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// A progress or status line on stderr (stdout stays clean for results).
    static func printStatus(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// With `--json`, a command that stops before its result says why on stdout too, as JSON a
    /// script reads where it reads results: `{"error": {"code": "usage", "message": ...}, "exitStatus": 64}`.
    static func printJSONError(_ code: String, _ message: String, status: Int32) {
        var writer = JSONWriter(capacity: 256)
        writer.raw(#"{"error":{"code":"#)
        writer.string(code)
        writer.raw(#","message":"#)
        writer.string(message)
        writer.raw(#"},"exitStatus":"#)
        writer.number(Double(status))
        writer.raw("}")
        print(String(decoding: writer.data, as: UTF8.self))
    }

    static func printError(_ line: String) {
        FileHandle.standardError.write(Data("fuelboard: \(line)\n".utf8))
    }

    /// Parses `LAT,LNG`.
    static func parseCoordinate(_ text: String) -> Coordinate? {
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let lat = Double(parts[0]), let lng = Double(parts[1]) else { return nil }
        return Coordinate(lat: lat, lng: lng)
    }

    /// The exit status for a request that failed: 69 when the service did not answer, else 1.
    static func exitCode(for error: ServiceError) -> Int32 {
        error.code == .unavailable ? ServiceMain.ExitCode.unavailable : ServiceMain.ExitCode.failure
    }

    /// Says `what` failed with the service's error in one line, and gives its exit status.
    static func failed(_ what: String, _ error: ServiceError) -> Int32 {
        printError("\(what) failed: \(error.message) [\(error.code.rawValue)]")
        return exitCode(for: error)
    }

    /// An option's `LAT,LNG` value, checked as the services check it (lat in -90...90, lng in
    /// -180...180), so a bad one is a usage error here rather than a `bad_request` from a server.
    static func coordinate(_ text: String, option: String) throws(ConfigurationError) -> Coordinate {
        guard let point = parseCoordinate(text) else {
            throw ConfigurationError("\(option): expected LAT,LNG, got '\(text)'")
        }
        let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard point.lat.isFinite, (-90...90).contains(point.lat) else {
            throw ConfigurationError("\(option): latitude \(parts[0]) is outside -90...90")
        }
        guard point.lng.isFinite, (-180...180).contains(point.lng) else {
            throw ConfigurationError("\(option): longitude \(parts[1]) is outside -180...180")
        }
        return point
    }

    /// The hint for a point given LNG,LAT by mistake: outside the UK, and inside with its two
    /// numbers swapped (nil otherwise).
    static func swappedCoordinatesHint(_ point: Coordinate, option: String = "--at") -> String? {
        let swapped = Coordinate(lat: point.lng, lng: point.lat)
        guard !UKArea.includesUser(at: point), UKArea.includesUser(at: swapped) else { return nil }
        return "\(option) is LAT,LNG (latitude first): did you mean \(option) \(swapped.lat),\(swapped.lng)?"
    }
}
