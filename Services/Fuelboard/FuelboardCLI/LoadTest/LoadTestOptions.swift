import Foundation
import Messages
import ServiceKit

/// `fuelboard loadtest`'s options, checked before anything is sent: a bad value is refused with
/// one line (`ConfigurationError`, exit 64) rather than found out after a whole run.
struct LoadTestOptions {
    var target: LoadPlan.Target
    var type: MessageType
    var points: LoadPlan.Points
    var settings: LoadRunner.Settings
    var seed: UInt64
    /// A CMA fuel code (E10, E5, B7, SDV) or "mixed".
    var fuel: String
    var radius: Double
    /// Where to draw the chart (`--svg`), its directory already checked writable.
    var chartPath: String?
    /// The name the router's asks say (`--app-name`, else `FUELBOARD_APP_NAME`, as intent-router
    /// reads it): against a router with another name, every ask was "not understood" (QA).
    var appName = AppNameSetting.defaultName

    /// The most requests in flight or per second one generator thread is asked for.
    static let maxConcurrency = 100_000
    static let maxRate = 1_000_000.0

    /// Reads and checks every option; `lookup` and `router` are the endpoints of the topology.
    init(_ arguments: ParsedArguments, lookup: String, router: String,
         timeout: Duration, environment: [String: String] = [:]) throws(ConfigurationError) {
        guard let target = LoadPlan.Target(rawValue: arguments.value("--target") ?? "lookup") else {
            throw ConfigurationError("--target: expected lookup or router, got '\(arguments.value("--target") ?? "")'")
        }
        guard let points = LoadPlan.Points(rawValue: arguments.value("--points") ?? "stations") else {
            throw ConfigurationError("--points: expected stations or uniform, "
                + "got '\(arguments.value("--points") ?? "")'")
        }
        if target == .lookup && arguments.has("--keep-users") {
            throw ConfigurationError("--keep-users: applies only to --target router (a lookup stores no users)")
        }
        if target == .router {
            // The router is loaded with generated utterances: these lookup settings have no effect there.
            for name in ["--type", "--fuel", "--radius"] where arguments.value(name) != nil {
                throw ConfigurationError("\(name): applies only to --target lookup "
                    + "(--target router sends assistant.ask with generated utterances)")
            }
        }
        if arguments.value("--rate") != nil && arguments.value("--concurrency") != nil {
            throw ConfigurationError("--rate and --concurrency: give one, not both "
                + "(--rate runs an open loop at a fixed rate, with no set number in flight)")
        }
        switch (target, arguments.value("--type") ?? "cheapest") {
        case (.router, _): type = .assistantAsk
        case (.lookup, "cheapest"): type = .lookupCheapest
        case (.lookup, "nearest"): type = .lookupNearest
        case (.lookup, let other): throw ConfigurationError("--type: expected cheapest or nearest, got '\(other)'")
        }
        self.target = target
        self.points = points

        var settings = LoadRunner.Settings(endpoint: target == .lookup ? lookup : router)
        settings.concurrency = try Self.count(arguments, "--concurrency", upTo: Self.maxConcurrency) ?? 1
        settings.rate = try Self.number(arguments, "--rate", upTo: Self.maxRate)
        settings.spin = arguments.has("--spin")
        if settings.spin && settings.rate == nil {
            throw ConfigurationError("--spin: applies only to an open loop (--rate)")
        }
        settings.threads = try Self.count(arguments, "--threads", upTo: ParallelLoad.maxThreads) ?? 1
        if settings.rate == nil && settings.threads > settings.concurrency {
            throw ConfigurationError("--threads: at most --concurrency (\(settings.concurrency)) in a closed loop, "
                + "got \(settings.threads) (a thread with nothing in flight sends nothing)")
        }
        // Every thread has sockets of its own: one each unless told otherwise.
        let perThread = ParallelLoad.maxConnectionsPerThread
        settings.connections = try Self.count(arguments, "--connections", upTo: perThread * settings.threads,
                                              note: " (at most \(perThread) per thread: --threads raises the limit)")
            ?? settings.threads
        if settings.connections < settings.threads {
            throw ConfigurationError("--connections: at least --threads (\(settings.threads)), "
                + "got \(settings.connections) (every thread sends on connections of its own)")
        }
        if settings.rate == nil && settings.connections > settings.concurrency {
            throw ConfigurationError("--connections: at most --concurrency (\(settings.concurrency)) in a closed loop, "
                + "got \(settings.connections) (a connection with nothing in flight sends nothing)")
        }
        // The services take in and hold at most this many requests for one client: more in flight
        // on one connection would wait in this generator's socket, or lose replies when it reads slowly.
        let perConnection = ReplyServer.defaultQueuedPerClient
        let connections = settings.connections
        if settings.rate == nil && (settings.concurrency + connections - 1) / connections > perConnection {
            throw ConfigurationError("--concurrency: at most \(perConnection) in flight on one connection (the services "
                + "hold that many for one client), got \(settings.concurrency) over \(connections): raise --connections")
        }
        settings.duration = try Self.duration(arguments, "--duration") ?? .seconds(10)
        // A request count alone is not cut short by the default duration: it runs until it is done.
        if arguments.value("--requests") != nil && arguments.value("--duration") == nil {
            settings.duration = Self.longestDuration
        }
        guard settings.duration > .zero else {
            throw ConfigurationError("--duration: must be more than 0, got '\(arguments.value("--duration") ?? "")'")
        }
        settings.warmup = try Self.duration(arguments, "--warmup") ?? .seconds(1)
        settings.checksContent = !arguments.has("--no-check")
        if target == .router && arguments.has("--no-check") {
            throw ConfigurationError("--no-check: applies only to --target lookup (an assistant answer's code is "
                + "always read)")
        }
        if let text = arguments.value("--max-p99") {
            settings.maxP99 = try ServiceMain.readDuration(text, option: "--max-p99", atLeast: .nanoseconds(1),
                                                           atMost: Self.longestDuration)
        }
        settings.maxRequests = try Self.count(arguments, "--requests", upTo: Int(Int32.max))
        if let requests = settings.maxRequests, requests < settings.threads {
            throw ConfigurationError("--requests: at least --threads (\(settings.threads)), got \(requests) "
                + "(every thread sends some)")
        }
        settings.timeout = timeout
        self.settings = settings

        if let text = arguments.value("--seed") {
            guard let seed = UInt64(text) else {
                throw ConfigurationError("--seed: expected a whole number from 0 to \(UInt64.max), got '\(text)'")
            }
            self.seed = seed
        } else {
            seed = 1
        }
        fuel = try Self.fuel(arguments.value("--fuel"))
        radius = try Self.number(arguments, "--radius", upTo: LookupRequest.maxRadiusMiles) ?? 5
        let named = arguments.value(AppNameSetting.flag)
        if named != nil && target != .router {
            throw ConfigurationError("--app-name: applies only to --target router (a lookup names no app)")
        }
        if target == .router, let name = named ?? environment[AppNameSetting.environment] {
            guard AppNameSetting.isWritable(name) else {
                throw ConfigurationError("\(named != nil ? AppNameSetting.flag : AppNameSetting.environment): "
                    + "'\(name.prefix(80))' cannot be the app name")
            }
            appName = name
        }
        chartPath = arguments.value("--svg")
        if let chartPath { try LoadChart.checkWritable(chartPath) }
    }

    /// `--fuel`: a CMA fuel code or a word for one in any case, normalised (`b7`, `diesel` -> `B7`),
    /// or `mixed`; B7 when absent.
    static func fuel(_ text: String?) throws(ConfigurationError) -> String {
        guard let text else { return FuelCode.b7.rawValue }
        if text.lowercased() == "mixed" { return "mixed" }
        guard let code = FuelCode(word: text) else {
            throw ConfigurationError("--fuel: expected a CMA fuel code (E10, E5, B7, SDV), a word for one "
                + "(unleaded, diesel...) or mixed, got '\(text)'")
        }
        return code.rawValue
    }

    /// A whole number from 1 to `limit`, or nil when the option is absent.
    private static func count(_ arguments: ParsedArguments, _ name: String, upTo limit: Int,
                              note: String = "") throws(ConfigurationError) -> Int? {
        guard let text = arguments.value(name) else { return nil }
        guard let value = Int(text), value >= 1, value <= limit else {
            throw ConfigurationError("\(name): expected a whole number from 1 to \(limit), got '\(text)'\(note)")
        }
        return value
    }

    /// A number above 0 and at most `limit`, or nil when the option is absent.
    private static func number(_ arguments: ParsedArguments, _ name: String,
                               upTo limit: Double) throws(ConfigurationError) -> Double? {
        guard let text = arguments.value(name) else { return nil }
        guard let value = Double(text), value.isFinite, value > 0, value <= limit else {
            throw ConfigurationError("\(name): expected a number above 0 and at most \(Int(limit)), got '\(text)'")
        }
        return value
    }

    /// The longest run: a week.
    static let longestDuration: Duration = .seconds(7 * 86_400)

    /// A duration such as 10s, 500ms or 2m (with its unit, as every duration option, and at most a
    /// week), or nil when the option is absent.
    private static func duration(_ arguments: ParsedArguments, _ name: String) throws(ConfigurationError) -> Duration? {
        guard let text = arguments.value(name) else { return nil }
        return try ServiceMain.readDuration(text, option: name, atLeast: .zero, atMost: longestDuration)
    }
}
