import Foundation
import Messages
import ZeroMQ

/// The shared start-up of every binary: parse flags and environment, print `--help`, exit 64 on
/// bad configuration, set up logging and signals. Service mains stay a few lines long.
public struct ServiceMain {
    public let name: String
    public let arguments: ParsedArguments
    /// Every option this binary takes (its own and the common ones), for messages about them.
    let options: [OptionSpec]
    public let topology: Topology
    public let logger: Logger
    public let context: Context

    /// Exit statuses the binaries use.
    public enum ExitCode {
        public static let success: Int32 = 0
        public static let failure: Int32 = 1
        /// Bad flags or environment (EX_USAGE).
        public static let usage: Int32 = 64
        /// The store is damaged (EX_DATAERR): a restart would find it so again.
        public static let dataError: Int32 = 65
        /// A dependency could not be reached (EX_UNAVAILABLE).
        public static let unavailable: Int32 = 69
        /// The data directory cannot be created or written (EX_CANTCREAT).
        public static let cannotCreate: Int32 = 73
    }

    /// Options every service accepts besides its own.
    public static let commonOptions: [OptionSpec] = Topology.options + [
        OptionSpec("--bind", value: "URL", help: "bind this service here instead of its topology endpoint"),
        OptionSpec("--log-level", value: "LEVEL", help: "trace|debug|info|notice|warning|error|critical [$FUELBOARD_LOG_LEVEL, default info]"),
        OptionSpec("--check-config", help: checkConfigHelp(keepsData: true)),
        OptionSpec("--version", help: "print the version and exit"),
        OptionSpec("--help", help: "print this help and exit"),
    ]

    /// Parses the process's arguments; prints help or a usage error and exits when it must.
    /// `uses` names the topology settings this binary reads (`--lookup`, `--data-dir`): `--help`
    /// lists those, and names the others as accepted and unused, so one set of flags or
    /// `FUELBOARD_*` variables serves every binary. The context's I/O threads yield to the
    /// service's thread (`Context(yieldingIOThreads:)`) unless `yieldingIOThreads` is false.
    public init(name: String, summary: String, options: [OptionSpec], uses: [String],
                arguments: [String] = Array(CommandLine.arguments.dropFirst()),
                environment: [String: String] = ProcessInfo.processInfo.environment,
                yieldingIOThreads: Bool = true) {
        ShutdownSignals.blockForDelivery(ShutdownSignals.serviceSignals)
        let allOptions = options + Self.commonOptions
        let help = Self.help(name: name, summary: summary, options: options, uses: uses)
        do {
            let parsed = try ParsedArguments(arguments, options: allOptions)
            if parsed.has("--help") {
                print(help.rendered, terminator: "")
                exit(ExitCode.success)
            }
            if parsed.has("--version") {
                print("\(name) \(fuelboardVersion)")
                exit(ExitCode.success)
            }
            if let extra = parsed.positionals.first {
                throw ConfigurationError("unexpected argument '\(extra)' (see --help)")
            }
            let levelName = parsed.value("--log-level") ?? environment["FUELBOARD_LOG_LEVEL"] ?? "info"
            guard let level = Logger.Level(name: levelName) else {
                let setting = parsed.value("--log-level") == nil ? "FUELBOARD_LOG_LEVEL" : "--log-level"
                throw ConfigurationError("\(setting): unknown level '\(levelName)' (trace, debug, info, notice, warning, "
                    + "error or critical)")
            }
            if let bind = parsed.value("--bind") { try Endpoint.validateBind(bind, setting: "--bind") }
            self.name = name
            self.options = allOptions
            self.arguments = parsed
            self.topology = try Topology(arguments: parsed, environment: environment)
            self.logger = Logger(label: name, level: level)
            self.context = Context(yieldingIOThreads: yieldingIOThreads)
        } catch {
            Self.usageFailure(name: name, error as? ConfigurationError ?? ConfigurationError("\(error)"))
        }
    }

    /// `--check-config`'s help: exit 73 only for a service with a data directory.
    static func checkConfigHelp(keepsData: Bool) -> String {
        "check the flags and environment, print the settings and exit (0 usable, 64 not"
            + (keepsData ? ", 73 a data directory that cannot be made there" : "") + "); binds, creates and writes nothing"
    }

    /// `--help`: the binary's own options, the topology settings it uses (in the contract's order),
    /// the common flags, and a paragraph naming the topology settings it accepts without using.
    static func help(name: String, summary: String, options: [OptionSpec], uses: [String]) -> HelpText {
        let topologyFlags = Set(Topology.settings.map(\.flag))
        precondition(Set(uses).isSubset(of: topologyFlags), "\(name) uses an unknown topology setting: \(uses)")
        let used = Topology.options.filter { uses.contains($0.name) }
        let unused = Topology.settings.filter { !uses.contains($0.flag) }
        // A stateless service has no data directory to speak of.
        let common = commonOptions.filter { !topologyFlags.contains($0.name) }.map { option in
            option.name == "--check-config" && !uses.contains("--data-dir")
                ? OptionSpec("--check-config", help: checkConfigHelp(keepsData: false)) : option
        }
        let footer = unused.isEmpty ? nil : """
            Also accepted and unused here, so one set of settings serves every binary: \
            \(unused.map(\.flag).joined(separator: ", ")) (and \(unused.map(\.environment).joined(separator: ", "))).
            """
        return HelpText(usage: "\(name) [options]", summary: summary, options: options + used + common, footer: footer)
    }

    /// Prints `<name>: <problem>` on stderr and exits 64.
    public static func usageFailure(name: String, _ error: ConfigurationError) -> Never {
        FileHandle.standardError.write(Data("\(name): \(error.description)\n".utf8))
        exit(ExitCode.usage)
    }

    /// Whether `--check-config` was given: the main reads every option, then calls
    /// `finishConfigurationCheck` before it binds or keeps anything (the data directory check makes
    /// an empty directory there and removes it at once).
    public var isCheckingConfiguration: Bool { arguments.has("--check-config") }

    /// With `--check-config`: prints `<name>: configuration ok` and `settings` (`key=value`, one a
    /// line, as the service will use them) and exits 0. Without it, returns. Every bad value has
    /// exited 64 before this point.
    public func finishConfigurationCheck(_ settings: KeyValuePairs<String, String>) {
        guard isCheckingConfiguration else { return }
        var text = "\(name): configuration ok\n"
        for (key, value) in settings {
            text += "\(key)=\(value)\n"
            if key == "data-dir" {
                text += "data-dir-writable=\(Self.writableByThisUser(value) ? "yes" : "no (by this user)")\n"
                // Said, not refused: a check beside the running instance (before a restart) is usual.
                let holder = DataDirectoryLock.holder(directory: URL(fileURLWithPath: value), service: name)
                text += "data-dir-in-use=" + (holder.map { "yes (by another \(name), \($0): a start is refused while it runs)" }
                    ?? "no") + "\n"
            }
            if key == "store" { text += "store-usable=\(Self.storeUsability(value))\n" }
        }
        FileHandle.standardOutput.write(Data(text.utf8))
        exit(ExitCode.success)
    }

    /// Whether the store file at `path` can be opened for reading and writing by this user, as the
    /// start will: "yes", "yes (made at the start)" when it does not exist yet and its directory can
    /// be written, or "no (by this user: ...)" with why (whose it is and its mode). Said, not
    /// refused: the service may run as another user than the one checking (a store put back by root
    /// failed only at the start).
    static func storeUsability(_ path: String) -> String {
        guard FileManager.default.fileExists(atPath: path) else {
            // Made at the start in the data directory: only where this user can write (it said "yes"
            // beside data-dir-writable=no: operator QA).
            return writableByThisUser(URL(fileURLWithPath: path).deletingLastPathComponent().path)
                ? "yes (made at the start)" : "no (by this user: it is made at the start, in a directory this user cannot write)"
        }
        if access(path, R_OK | W_OK) == 0 { return "yes" }
        var status = stat()
        guard stat(path, &status) == 0 else { return "no (by this user)" }
        let mode = String(status.st_mode & 0o777, radix: 8)
        return "no (by this user, uid \(getuid()): it belongs to uid \(status.st_uid), mode \(mode))"
    }

    /// Whether `path`, or the nearest directory above it that exists, can be written by this user.
    static func writableByThisUser(_ path: String) -> Bool {
        WriteProbe.probe(nearestExisting(path).path) == .writable
    }

    /// `90s`, `1800s`, `0.5s`: a duration as `--check-config` prints it.
    public static func secondsText(_ duration: Duration) -> String {
        let seconds = duration.inSeconds
        return seconds == seconds.rounded() ? "\(Int64(seconds))s" : "\(seconds)s"
    }

    /// Where this service binds: `flag` (`--bind`) if given, else its topology endpoint, which
    /// must then be one endpoint too (a list there is for clients); otherwise exits 64.
    public func bindEndpoint(_ flag: String = "--bind", default endpoint: String) -> String {
        let chosen = arguments.value(flag) ?? endpoint
        do {
            try Endpoint.validateBind(chosen, setting: arguments.value(flag) == nil ? "without \(flag), its endpoint setting"
                : flag)
        } catch {
            Self.usageFailure(name: name, error)
        }
        return chosen
    }

    /// Reads a typed option with a default; a bad value exits 64.
    public func option<T>(_ name: String, default value: T, _ parse: (String) -> T?) -> T {
        guard let text = arguments.value(name) else { return value }
        guard let parsed = parse(text) else {
            let placeholder = options.first { $0.name == name }?.value
            let expected = placeholder == "DURATION" ? "a duration such as 30s, 500ms, 10m or 2h"
                : placeholder.map { "a \($0)" } ?? "a valid value"
            Self.usageFailure(name: self.name, ConfigurationError("\(name): expected \(expected), got '\(text)'"))
        }
        return parsed
    }

    /// Reads a duration option (`30s`, `500ms`, `10m`, `2h`) of at least `minimum`; a bad value exits 64.
    public func durationOption(_ name: String, default value: Duration,
                               atLeast minimum: Duration = .nanoseconds(1)) -> Duration {
        guard let text = arguments.value(name) else { return value }
        do {
            return try Self.readDuration(text, option: name, atLeast: minimum)
        } catch {
            Self.usageFailure(name: self.name, error)
        }
    }

    /// `text` as a duration of at least `minimum` and at most `maximum` (whole hours), or the usage
    /// error naming `option`: a number without its unit is refused rather than read as seconds
    /// (`--ttl 24` meant 24 hours).
    public static func readDuration(_ text: String, option: String, atLeast minimum: Duration,
                                    atMost maximum: Duration = .seconds(maxDurationSeconds))
        throws(ConfigurationError) -> Duration
    {
        if let number = Double(text), number != 0 {
            throw ConfigurationError("\(option): '\(text)' has no unit: write \(text)s, \(text)m or \(text)h")
        }
        guard let seconds = seconds(in: text) else {
            throw ConfigurationError("\(option): expected a duration such as 30s, 500ms, 10m or 2h, got '\(text)'")
        }
        guard let duration = duration(seconds: seconds), duration <= maximum else {
            let hours = maximum.components.seconds / 3600
            let said = hours == 8760 ? "a year (8760h)" : hours == 168 ? "a week (168h)" : "\(hours)h"
            throw ConfigurationError("\(option): at most \(said), got '\(text)'")
        }
        guard duration >= minimum else {
            let milliseconds = Int(minimum / .milliseconds(1))
            let limit = minimum <= .nanoseconds(1) ? "more than 0"
                : milliseconds % 1000 == 0 ? "at least \(milliseconds / 1000)s" : "at least \(milliseconds)ms"
            throw ConfigurationError("\(option): must be \(limit), got '\(text)'")
        }
        return duration
    }

    /// Creates the data directory; exits 73 (EX_CANTCREAT) with one clear line if it cannot, or if
    /// this process cannot write in it.
    ///
    /// What the service creates from here on is its user's alone (umask 077), as systemd's
    /// `UMask=0077` makes it: location-cache's store holds users' locations, and under a shell's
    /// usual umask (022) it was readable by every account on the host.
    public func ensureDataDirectory() -> URL {
        let url = URL(fileURLWithPath: topology.dataDir, isDirectory: true)
        if isCheckingConfiguration {
            // Nothing is left behind: the directory, or the nearest one above it that exists, must
            // be a directory. Whether it can be written depends on the user the service runs as, who
            // need not be the one checking: that is said (`data-dir-writable`), not refused.
            let existing = Self.nearestExisting(topology.dataDir)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: existing.path, isDirectory: &isDirectory),
                  isDirectory.boolValue else {
                dataDirectoryFailure("cannot create data directory", "\(topology.dataDir): \(existing.path) is not a directory")
            }
            // A read-only file system stops every user alike: refused as the start would refuse it.
            if Self.isOnReadOnlyFileSystem(existing.path) {
                dataDirectoryFailure("cannot write in data directory", "\(topology.dataDir): Read-only file system")
            }
            // So does a directory no entry can be made in (`/proc`, whatever its permission bits
            // say; a full disk): an empty one is made there and removed at once.
            if case .impossible(let reason) = WriteProbe.probe(existing.path) {
                let exists = existing == URL(fileURLWithPath: topology.dataDir).standardizedFileURL
                dataDirectoryFailure(exists ? "cannot write in data directory" : "cannot create data directory",
                                     "\(topology.dataDir): \(reason)")
            }
            return url
        }
        umask(0o077)
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            dataDirectoryFailure("cannot create data directory", FileErrorText.describe(error, path: topology.dataDir))
        }
        switch WriteProbe.probe(url.path) {
        case .writable: break
        case .denied: dataDirectoryFailure("cannot write in data directory", "\(topology.dataDir): Permission denied")
        case .impossible(let reason): dataDirectoryFailure("cannot write in data directory", "\(topology.dataDir): \(reason)")
        }
        return url
    }

    /// Whether `path` lies on a file system mounted read-only.
    static func isOnReadOnlyFileSystem(_ path: String) -> Bool {
        var info = statvfs()
        return statvfs(path, &info) == 0 && info.f_flag & UInt(ST_RDONLY) != 0
    }

    /// One line saying what is wrong with the data directory and what to set, then exit 73.
    private func dataDirectoryFailure(_ event: String, _ error: String) -> Never {
        logger.error(event, metadata: [
            "error": error, "fix": "set --data-dir or FUELBOARD_DATA_DIR to a directory this user can write"])
        exit(ExitCode.cannotCreate)
    }

    /// `path` if it exists, else the nearest directory above it that does.
    static func nearestExisting(_ path: String) -> URL {
        var existing = URL(fileURLWithPath: path).standardizedFileURL
        while !FileManager.default.fileExists(atPath: existing.path), existing.path != "/" {
            existing.deleteLastPathComponent()
        }
        return existing
    }

    /// Runs the loop to completion: exit 0 after a signal-driven stop, 1 on failure.
    public func run(_ server: ReplyServer) -> Never {
        if let drain = server.stopRequest(), let grace = server.drainGrace {
            // A server that drains gets its grace, and the watchdog's usual 3 s after it.
            ShutdownSignals.install(shuttingDown: context, grace: grace + .seconds(3), logger: logger, drain: drain)
        } else {
            ShutdownSignals.install(shuttingDown: context, logger: logger)
        }
        do {
            try server.run()
            logger.info("stopped")
            exit(ExitCode.success)
        } catch {
            logger.error("stopped on error", metadata: ["error": "\(error)"])
            exit(ExitCode.failure)
        }
    }

    /// Parses a duration like `30m`, `90s`, `2h`, `500ms` or plain seconds (options go through
    /// `readDuration`, which refuses a number without its unit).
    public static func parseDuration(_ text: String) -> Duration? {
        seconds(in: text).flatMap(duration(seconds:))
    }

    /// `seconds` as a duration, up to a year: anything longer is a typo, and past Int64
    /// nanoseconds it would trap.
    private static func duration(seconds: Double) -> Duration? {
        seconds <= maxDurationSeconds ? .nanoseconds(Int64((seconds * 1e9).rounded())) : nil
    }

    /// The seconds `text` says (`30m`, `500ms`, `45`), however many; nil when it is no duration.
    private static func seconds(in text: String) -> Double? {
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)]
        var number = Substring(text), scale = 1.0
        for (suffix, unitScale) in units where text.hasSuffix(suffix) {
            if suffix == "s" && text.hasSuffix("ms") { continue }
            (number, scale) = (text.dropLast(suffix.count), unitScale)
            break
        }
        guard let value = Double(number), value >= 0, value.isFinite, (value * scale).isFinite else { return nil }
        return value * scale
    }

    /// The longest duration an option takes, in seconds (a year).
    public static let maxDurationSeconds: Double = 365 * 24 * 3600
}
