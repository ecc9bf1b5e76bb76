import Foundation
import Messages
import ServiceKit
import ServiceTesting
import TestSupport
import Testing
import ZeroMQ

/// The binaries as an operator meets them: --help, bad configuration, clean stop.
struct ProcessLifecycleTests {
    /// Each binary lists the settings it uses as options and names the rest as accepted.
    @Test(arguments: [("price-ingest", ["--ingest", "--ingest-pub", "--data-dir"]),
                      ("fuel-lookup", ["--ingest", "--ingest-pub", "--lookup"]),
                      ("location-cache", ["--location", "--data-dir"]),
                      ("dialog-renderer", ["--dialog"]),
                      ("intent-router", ["--router", "--lookup", "--location", "--dialog"])])
    func service_whenHelpAsked_printsUsageAndExits0(binary: String, uses: [String]) throws {
        let process = try ServiceProcess(binary, ["--help"])
        #expect(try process.waitForExit() == 0)
        #expect(process.log.contains("Usage: \(binary)"))
        let topology = ["--router", "--ingest", "--ingest-pub", "--lookup", "--location", "--dialog", "--data-dir"]
        let listed = process.log.split(separator: "\n").compactMap { line in
            line.hasPrefix("  --") ? String(line.dropFirst(2).prefix { $0 != " " }) : nil
        }
        #expect(listed.filter(topology.contains) == uses, "\(process.log)")
        let accepted = try #require(process.log.components(separatedBy: "\n\n").first { $0.hasPrefix("Also accepted") })
            .replacingOccurrences(of: "\n", with: " ")
        for unused in topology where !uses.contains(unused) {
            #expect(accepted.contains("\(unused),") || accepted.contains("\(unused) ("), "\(unused): \(accepted)")
        }
    }

    @Test(arguments: ["price-ingest", "fuel-lookup"])
    func service_whenFlagUnknown_exits64WithOneLine(binary: String) throws {
        let process = try ServiceProcess(binary, ["--no-such-flag"])
        #expect(try process.waitForExit() == 64)
        #expect(process.log.split(separator: "\n").count == 1)
        #expect(process.log.contains("unknown option --no-such-flag"))
    }

    @Test func priceIngest_whenFeedsListMissing_exits64WithOneReadableLine() throws {
        let path = "/nonexistent-\(UUID().uuidString)/feeds.txt"
        let process = try ServiceProcess("price-ingest", ["--feeds", path])
        #expect(try process.waitForExit() == 64)
        #expect(process.log.split(separator: "\n").count == 1)
        #expect(process.log.contains("--feeds: \(path): No such file or directory"), "\(process.log)")
    }

    /// Templates it cannot use are a setting to fix: one line and 64, in the check too. It was a
    /// log line and exit 1, which a systemd unit restarts in a loop (QA).
    @Test(arguments: [false, true])
    func dialogRenderer_whenTheTemplatesCannotBeRead_exits64WithOneLine(checking: Bool) throws {
        let path = "/nonexistent-\(UUID().uuidString)"
        let process = try ServiceProcess("dialog-renderer", ["--templates", path] + (checking ? ["--check-config"] : []))
        #expect(try process.waitForExit() == 64)
        let lines = process.log.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("dialog-renderer: --templates \(path): "), "\(process.log)")
    }

    /// The binary copied without its templates' folder (QA copied the binaries alone): one line
    /// saying what to copy, exit 64 ("the bundled templates: templates: the bundled templates..."
    /// said it twice).
    @Test func dialogRenderer_copiedWithoutItsTemplates_saysWhatToCopyInOneLine() throws {
        try withTemporaryDirectory { directory in
            let alone = directory.appendingPathComponent("dialog-renderer")
            try FileManager.default.copyItem(at: ServiceProcess.binaryDirectory.appendingPathComponent("dialog-renderer"),
                                             to: alone)
            let run = try CommandRun(executable: alone.path, ["--bind", "tcp://127.0.0.1:*"])
            #expect(run.status == 64)
            #expect(run.stderrLines == ["dialog-renderer: the bundled templates (FuelBoard_DialogRenderer.resources/Templates) "
                + "are not next to the binary: copy that folder beside it, or pass --templates DIR (see --templates in --help)"],
                    "\(run.stderr)")
        }
    }

    /// A store (or lock file) put back by root with mode 0600 cannot even be opened by the service's
    /// user: that is the data directory's fault, exit 73 naming the owner, as for a store it can
    /// only read. It was exit 1 ("unable to open database file"), which systemd restarts in a loop
    /// (QA). Run as root, the service started as nobody (setpriv); skipped elsewhere.
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")),
          arguments: ["price-ingest.sqlite", "price-ingest.lock"])
    func priceIngest_asAnotherUser_whenAFileInItsDirectoryIsRootsAlone_exits73NamingTheOwner(file: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("owned-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o777])
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(FileManager.default.createFile(atPath: directory.appendingPathComponent(file).path, contents: Data(),
                                               attributes: [.posixPermissions: 0o600]))
        let binary = ServiceProcess.binaryDirectory.appendingPathComponent("price-ingest").path
        let run = try CommandRun(executable: "/usr/bin/setpriv", [
            "--reuid=65534", "--regid=65534", "--clear-groups", binary, "--data-dir", directory.path,
            "--bind", "tcp://127.0.0.1:*", "--bind-pub", "tcp://127.0.0.1:*",
        ])
        #expect(run.status == 73, "\(run.stderr)")
        #expect(run.stderr.contains("belongs to uid 0, not this process's uid 65534"), "\(run.stderr)")
    }

    /// A bad level from the environment names the variable (it named --log-level, not given: QA).
    @Test func service_whenTheLogLevelVariableIsBad_namesTheVariable() throws {
        let process = try ServiceProcess("dialog-renderer", ["--check-config"], environment: ["FUELBOARD_LOG_LEVEL": "loud"])
        #expect(try process.waitForExit() == 64)
        #expect(process.log.contains("FUELBOARD_LOG_LEVEL: unknown level 'loud'"), "\(process.log)")
    }

    /// A stateless service's help speaks of no data directory (its --check-config offered exit 73).
    @Test(arguments: [("fuel-lookup", false), ("dialog-renderer", false), ("location-cache", true)])
    func checkConfigHelp_namesExit73_onlyWhereThereIsADataDirectory(binary: String, keepsData: Bool) throws {
        let process = try ServiceProcess(binary, ["--help"])
        #expect(try process.waitForExit() == 0)
        #expect(process.log.contains("73 a data directory") == keepsData, "\(process.log)")
    }

    @Test func service_whenADurationIsBad_saysWhatItExpects() throws {
        let process = try ServiceProcess("price-ingest", ["--poll-interval", "banana"])
        #expect(try process.waitForExit() == 64)
        #expect(process.log.contains("--poll-interval: expected a duration such as 30s"), "\(process.log)")
        #expect(process.log.contains("got 'banana'"))
    }

    /// A data directory that cannot be made (here under a plain file, which stops root too) is one
    /// line naming it and exit 73, not a Foundation error dump and 1.
    @Test func service_whenTheDataDirectoryCannotBeMade_saysWhereAndExits73() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("a-file")
            #expect(FileManager.default.createFile(atPath: file.path, contents: Data()))
            let wanted = file.appendingPathComponent("data").path
            let process = try ServiceProcess("location-cache", ["--data-dir", wanted, "--bind", "tcp://127.0.0.1:*"])
            #expect(try process.waitForExit() == 73)
            #expect(process.log.contains("cannot create data directory"), "\(process.log)")
            #expect(process.log.contains(wanted), "\(process.log)")
            #expect(!process.log.contains("Error Domain"), "\(process.log)")
            #expect(process.log.split(separator: "\n").count == 1, "\(process.log)")
        }
    }

    /// A store of users' locations was created world-readable outside systemd (umask 022): what
    /// a service creates in its data directory is now its user's alone, whatever the shell's umask.
    @Test(arguments: ["location-cache", "price-ingest"])
    func service_createsItsDataDirectoryAndStore_forItsUserAlone(service: String) throws {
        try withTemporaryDirectory { directory in
            let data = directory.appendingPathComponent("nested/data")
            var arguments = ["--data-dir", data.path, "--bind", "tcp://127.0.0.1:*"]
            if service == "price-ingest" { arguments += ["--bind-pub", "tcp://127.0.0.1:*"] }
            let process = try ServiceProcess(service, arguments)
            _ = try process.endpoint()  // listening: its store is open
            let files = try FileManager.default.contentsOfDirectory(atPath: data.path)
            #expect(files.contains { $0.hasSuffix(".sqlite") }, "\(files)")
            for name in files {
                let mode = try #require(try FileManager.default.attributesOfItem(atPath: data.appendingPathComponent(name).path)[.posixPermissions] as? Int)
                #expect(mode & 0o077 == 0, "\(name) is \(String(mode, radix: 8))")
            }
            let modes = try [data, data.deletingLastPathComponent()].map {
                try #require(try FileManager.default.attributesOfItem(atPath: $0.path)[.posixPermissions] as? Int)
            }
            #expect(modes.allSatisfy { $0 == 0o700 }, "\(modes.map { String($0, radix: 8) })")
            #expect(try process.terminate() == 0)
        }
    }

    @Test func priceIngest_withAnEmptyFeedsList_warnsThatNothingWillBePolled() throws {
        try withTemporaryDirectory { directory in
            let list = directory.appendingPathComponent("feeds.list")
            try Data("# no feeds yet\n".utf8).write(to: list)
            let process = try ServiceProcess("price-ingest", [
                "--feeds", list.path, "--data-dir", directory.appendingPathComponent("data").path,
                "--bind", "tcp://127.0.0.1:*", "--bind-pub", "tcp://127.0.0.1:*"])
            let line = try process.waitForLog { $0.contains("feeds list is empty") }
            #expect(line.contains("warning") && line.contains(list.path), "\(line)")
            _ = try process.endpoint() // serving, signal handlers installed
            #expect(try process.terminate() == 0)
        }
    }

    /// The app name is one setting for the two services that hear and say it: a flag, else
    /// FUELBOARD_APP_NAME. dialog-renderer had none (its texts said "FuelBoard" whatever the router heard).
    @Test(arguments: ["intent-router", "dialog-renderer"])
    func service_takesTheAppName_fromItsFlagOrTheEnvironment(binary: String) throws {
        let fromEnvironment = try ServiceProcess(binary, ["--check-config"], environment: ["FUELBOARD_APP_NAME": "Petrol Pal"])
        #expect(try fromEnvironment.waitForExit() == 0)
        #expect(fromEnvironment.log.contains("app-name=Petrol Pal\n"), "\(fromEnvironment.log)")
        let fromFlag = try ServiceProcess(binary, ["--check-config", "--app-name", "Tanky"],
                                          environment: ["FUELBOARD_APP_NAME": "Petrol Pal"])
        #expect(try fromFlag.waitForExit() == 0)
        #expect(fromFlag.log.contains("app-name=Tanky\n"), "\(fromFlag.log)")
        let blank = try ServiceProcess(binary, ["--check-config", "--app-name", "  "])
        #expect(try blank.waitForExit() == 64)
        #expect(blank.log.contains("--app-name: '  ' cannot be the app name"), "\(blank.log)")
    }

    /// A store file that is not a database (or is damaged) stops the start with exit 65 and a line
    /// saying so, which the systemd units do not restart on; it started before, on part of it.
    @Test(arguments: [("price-ingest", "price-ingest.sqlite"), ("location-cache", "location-cache.sqlite")])
    func service_onADamagedStore_exits65SayingSo(binary: String, file: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fuelboard-damaged-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var random = SystemRandomNumberGenerator()
        try Data((0..<65_536).map { _ in UInt8.random(in: 0...255, using: &random) })
            .write(to: directory.appendingPathComponent(file))
        let process = try ServiceProcess(binary, ["--data-dir", directory.path, "--bind", "tcp://127.0.0.1:*"]
                                         + (binary == "price-ingest" ? ["--bind-pub", "tcp://127.0.0.1:*"] : []))
        #expect(try process.waitForExit(timeout: .seconds(10)) == 65)
        #expect(process.log.contains("cannot start") && process.log.contains("is damaged"), "\(process.log)")
        // The advice whole: it was cut at 200 characters, before "or move the file ..." (operator QA).
        #expect(process.log.contains("or move the file and its -wal aside to start with an empty store"),
                "\(process.log)")
    }

    /// Binds --check-config passed that then failed at the start with exit 1, restarted every 2 s
    /// by systemd (operator QA): a host that is neither an address, an interface nor a name that
    /// resolves; one endpoint for both of a service's binds.
    @Test(arguments: [
        (["price-ingest", "--bind", "tcp://nosuch.invalid:5551"], "is neither an address"),
        (["price-ingest", "--bind", "tcp://127.0.0.1:5551", "--bind-pub", "tcp://127.0.0.1:5551"],
         "--bind and --bind-pub are both 'tcp://127.0.0.1:5551'"),
        (["intent-router", "--bind", "tcp://127.0.0.1:5550", "--plugins", "tcp://127.0.0.1:5550"],
         "--bind and --plugins are both"),
    ])
    func checkConfig_refusesABindThatCannotWork(arguments: [String], message: String) throws {
        let process = try ServiceProcess(arguments[0], Array(arguments.dropFirst()) + ["--check-config"])
        #expect(try process.waitForExit() == 64)
        #expect(process.log.contains(message), "\(process.log)")
    }

    @Test func checkConfig_takesABindByName_thatResolves() throws {
        let process = try ServiceProcess("price-ingest", ["--bind", "tcp://localhost:5551", "--check-config"])
        #expect(try process.waitForExit() == 0, "\(process.log)")
    }

    /// `--max-sessions` sizes the router's table of open questions (a flood of made-up users ended
    /// real users' conversations at the fixed 100,000); out of its range it is refused.
    @Test func router_takesMaxSessions_withinItsRange() throws {
        let taken = try ServiceProcess("intent-router", ["--check-config", "--max-sessions", "500000"])
        #expect(try taken.waitForExit() == 0)
        #expect(taken.log.contains("max-sessions=500000\n"), "\(taken.log)")
        for bad in ["5", "lots", "20000000"] {
            let refused = try ServiceProcess("intent-router", ["--check-config", "--max-sessions", bad])
            #expect(try refused.waitForExit() == 64)
            #expect(refused.log.contains("--max-sessions: expected a whole number from 1000 to 10000000"), "\(refused.log)")
        }
    }

    /// The example plug-in and the echo took `--check-config` and ran for real: station-prices
    /// registered with whatever router FUELBOARD_PLUGINS named (docs walkthrough).
    @Test(arguments: [("station-prices", "plugins=tcp://127.0.0.1:5556"), ("zmq-echo", "reply-bytes=512")])
    func everyBinaryTakingCheckConfig_checksAndExits(binary: String, setting: String) throws {
        let process = try ServiceProcess(binary, ["--check-config"])
        #expect(try process.waitForExit(timeout: .seconds(10)) == 0)
        #expect(process.log.contains("\(binary): configuration ok") && process.log.contains(setting), "\(process.log)")
        #expect(!process.log.contains("registered") && !process.log.contains("listening"), "\(process.log)")
    }

    /// `--check-config` reads everything, prints the settings as the service would use them, and
    /// binds, creates and writes nothing.
    @Test func service_withCheckConfig_printsItsSettings_andCreatesNothing() throws {
        try withTemporaryDirectory { directory in
            let data = directory.appendingPathComponent("not-yet").path
            let process = try ServiceProcess("location-cache", ["--check-config", "--ttl", "2h", "--data-dir", data,
                                                                "--bind", "tcp://0.0.0.0:5554"])
            #expect(try process.waitForExit() == 0)
            #expect(process.log.contains("location-cache: configuration ok"), "\(process.log)")
            #expect(process.log.contains("ttl=7200s") && process.log.contains("data-dir=\(data)"), "\(process.log)")
            #expect(process.log.contains("bind=tcp://0.0.0.0:5554"), "\(process.log)")
            #expect(!FileManager.default.fileExists(atPath: data))

            #expect(process.log.contains("data-dir-writable=yes"), "\(process.log)")
            #expect(process.log.contains("data-dir-in-use=no"), "\(process.log)")
            #expect(process.log.contains("store=\(data)/location-cache.sqlite\nstore-usable=yes (made at the start)"),
                    "\(process.log)")

            let bad = try ServiceProcess("location-cache", ["--check-config", "--ttl", "24"])
            #expect(try bad.waitForExit() == 64)
            #expect(bad.log.contains("'24' has no unit"), "\(bad.log)")

            // A data directory that cannot be one (a plain file stands there) fails the check as
            // it would fail the start: 73, one line.
            let file = directory.appendingPathComponent("a-file")
            #expect(FileManager.default.createFile(atPath: file.path, contents: Data()))
            let onAFile = try ServiceProcess("location-cache", ["--check-config", "--data-dir", file.path])
            #expect(try onAFile.waitForExit() == 73)
            #expect(onAFile.log.contains("is not a directory") && !onAFile.log.contains("configuration ok"),
                    "\(onAFile.log)")
        }
    }

    /// Beside a running instance, the check says the directory is in use and by which process (it
    /// said all was well; the start then exited 1: operator QA). Said, not refused: a check before
    /// a restart runs beside the instance it replaces.
    @Test func checkConfig_besideARunningInstance_saysTheDataDirectoryIsInUse() throws {
        try withTemporaryDirectory { directory in
            let running = try ServiceProcess("location-cache", ["--data-dir", directory.path, "--bind", "tcp://127.0.0.1:*"])
            defer { _ = try? running.terminate() }
            _ = try running.endpoint()
            let check = try ServiceProcess("location-cache", ["--check-config", "--data-dir", directory.path])
            #expect(try check.waitForExit() == 0)
            #expect(check.log.contains("data-dir-in-use=yes (by another location-cache, pid \(running.pid)"), "\(check.log)")
        }
    }

    /// A store not made yet, in a directory this user cannot write: "store-usable=yes (made at the
    /// start)" stood beside "data-dir-writable=no", and the start exited 73 (operator QA). As root,
    /// checked as nobody (setpriv); skipped elsewhere.
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func checkConfig_asAUserWhoCannotWriteTheDirectory_saysTheStoreIsNotUsable() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rootonly-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        defer { try? FileManager.default.removeItem(at: directory) }
        let binary = ServiceProcess.binaryDirectory.appendingPathComponent("location-cache").path
        let run = try CommandRun(executable: "/usr/bin/setpriv", [
            "--reuid=65534", "--regid=65534", "--clear-groups", binary, "--check-config", "--data-dir", directory.path,
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("data-dir-writable=no"), "\(run.stdout)")
        #expect(run.stdout.contains("store-usable=no (by this user: it is made at the start, in a directory this user "
            + "cannot write)"), "\(run.stdout)")
    }

    /// What a service binds is one endpoint: `--check-config` refuses what the start would fail on
    /// (it said "configuration ok" for a list, then the start exited 1 with "No such device").
    @Test(arguments: [
        ("fuel-lookup", ["--check-config"], ["FUELBOARD_LOOKUP": "tcp://127.0.0.1:1,tcp://127.0.0.1:2"], "lists several endpoints"),
        ("fuel-lookup", ["--check-config", "--bind", "tcp://127.0.0.1:1,tcp://127.0.0.1:2"], [:], "lists several endpoints"),
        ("price-ingest", ["--check-config", "--bind-pub", "nonsense"], [:], "--bind-pub: 'nonsense' is not an endpoint"),
        ("dialog-renderer", ["--check-config", "--bind", "inproc://"], [:], "'inproc://' is not an endpoint"),
        ("intent-router", ["--check-config", "--plugins", "tcp://127.0.0.1:1,tcp://127.0.0.1:2"], [:], "lists several"),
    ])
    func checkConfig_refusesWhatCannotBeBound(binary: String, arguments: [String], environment: [String: String],
                                              message: String) throws {
        let process = try ServiceProcess(binary, arguments, environment: environment)
        #expect(try process.waitForExit() == 64)
        #expect(process.log.contains(message) && !process.log.contains("configuration ok"), "\(process.log)")
    }

    /// A data directory under `/proc`: its permission bits let root write, but nothing can be made
    /// there. The check said "data-dir-writable=yes" and exit 0, then the start exited 73.
    @Test(arguments: ["price-ingest", "location-cache"])
    func checkConfig_withADataDirectoryNothingCanBeMadeIn_saysSoAsTheStartWould(binary: String) throws {
        let check = try ServiceProcess(binary, ["--check-config", "--data-dir", "/proc/fuelboard-nope"])
        let status = try check.waitForExit()
        if geteuid() == 0 {
            #expect(status == 73, "\(check.log)")
            #expect(check.log.contains("cannot create data directory") && check.log.contains("/proc/fuelboard-nope"),
                    "\(check.log)")
        } else {
            // Another user might, as far as this one can tell: said, not refused.
            #expect(status == 0 && check.log.contains("data-dir-writable=no"), "\(check.log)")
        }
    }

    /// An existing directory nothing can be made in (as root: `/proc` itself) fails the start as it
    /// fails the check: 73 and one line (the start took it, then failed opening its store, exit 1).
    @Test(arguments: ["price-ingest", "location-cache"])
    func start_inAnExistingDirectoryNothingCanBeMadeIn_exits73(binary: String) throws {
        // (As another user than root, /proc is refused as Permission denied: 73 all the same.)
        var arguments = ["--data-dir", "/proc", "--bind", "tcp://127.0.0.1:*"]
        if binary == "price-ingest" { arguments += ["--bind-pub", "tcp://127.0.0.1:*"] }
        let start = try ServiceProcess(binary, arguments)
        #expect(try start.waitForExit() == 73, "\(start.log)")
        #expect(start.log.contains("cannot write in data directory") && start.log.contains("/proc:"), "\(start.log)")
    }

    /// A plug-in endpoint another process holds stops intent-router's start, as its own endpoint
    /// does (it ran on without it, taking no intent service, after one log line).
    @Test func intentRouter_whosePluginEndpointIsTaken_exits1NamingIt() throws {
        let context = Context()
        defer { context.shutdown() }
        let holder = try Socket(context, .router)
        defer { holder.close() }
        let taken = try holder.bind("tcp://127.0.0.1:*")
        let router = try ServiceProcess("intent-router", ["--bind", "tcp://127.0.0.1:*", "--plugins", taken])
        #expect(try router.waitForExit() == 1)
        #expect(router.log.contains("cannot start") && router.log.contains(taken)
                && router.log.contains("Address already in use"), "\(router.log)")
    }

    /// A start that cannot take its endpoint (here: another process holds it) fails before it
    /// makes a store: it left an empty SQLite file behind, owned by whoever ran the failed start.
    @Test(arguments: [("price-ingest", "--bind"), ("price-ingest", "--bind-pub"), ("location-cache", "--bind")])
    func start_whoseEndpointIsTaken_exits1_leavingNoStore(binary: String, takenOption: String) throws {
        let context = Context()
        defer { context.shutdown() }
        let holder = try Socket(context, .router)
        defer { holder.close() }
        let taken = try holder.bind("tcp://127.0.0.1:*")
        try withTemporaryDirectory { directory in
            var endpoints = ["--bind": "tcp://127.0.0.1:*"]
            if binary == "price-ingest" { endpoints["--bind-pub"] = "tcp://127.0.0.1:*" }
            endpoints[takenOption] = taken
            let arguments = ["--data-dir", directory.path] + endpoints.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] }
            let start = try ServiceProcess(binary, arguments)
            #expect(try start.waitForExit() == 1, "\(start.log)")
            #expect(start.log.contains("cannot start") && start.log.contains("Address already in use"), "\(start.log)")
            let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            #expect(!left.contains { $0.hasSuffix(".sqlite") || $0.contains(".sqlite-") }, "\(left)")
        }
    }

    /// One price-ingest per data directory: a second on the same one refused to start nowhere, took
    /// turns writing the store, and its replicas fell behind while saying they were in step.
    @Test func priceIngest_onADataDirectoryInUse_refusesToStart_andStartsOnceItIsFree() throws {
        try withTemporaryDirectory { directory in
            let arguments = ["--data-dir", directory.path, "--bind", "tcp://127.0.0.1:*", "--bind-pub", "tcp://127.0.0.1:*"]
            let first = try ServiceProcess("price-ingest", arguments)
            _ = try first.endpoint()
            let second = try ServiceProcess("price-ingest", arguments)
            #expect(try second.waitForExit() == 1)
            #expect(second.log.contains("is in use by another price-ingest (pid \(first.pid))"), "\(second.log)")
            #expect(try first.terminate() == 0)
            let third = try ServiceProcess("price-ingest", arguments)
            _ = try third.endpoint()
            #expect(try third.terminate() == 0)
        }
    }

    @Test func service_whenEndpointUnparseable_exits64() throws {
        let process = try ServiceProcess("fuel-lookup", [], environment: ["FUELBOARD_LOOKUP": "localhost:5553"])
        #expect(try process.waitForExit() == 64)
        #expect(process.log.contains("FUELBOARD_LOOKUP"))
    }

    @Test func priceIngest_whenSIGTERM_stopsCleanlyWithStatus0() throws {
        let stack = try DataPathStack(startLookup: true)
        #expect(try stack.lookup?.terminate() == 0)
        #expect(try stack.ingest.terminate() == 0)
        // It drains (finishing any feed in hand): with none, at once.
        #expect(stack.ingest.log.contains("stopping: answering the requests in flight grace=12s inFlight=0"), "\(stack.ingest.log)")
        #expect(stack.ingest.log.contains("stopping: requests in flight answered"), "\(stack.ingest.log)")
    }

    /// SIGHUP (a reload, to most daemons) changes nothing and says so; it ended price-ingest with
    /// status 129 and no line (operator QA).
    @Test func aService_onSIGHUP_logsItAndRunsOn() throws {
        let stack = try DataPathStack(startLookup: false)
        #expect(Glibc.kill(stack.ingest.pid, SIGHUP) == 0)
        try stack.ingest.waitForLog { $0.contains("SIGHUP ignored") }
        #expect(try stack.ingestClient().call(.sysPing, EmptyBody(), as: PingBody.self).service == "price-ingest")
        #expect(try stack.ingest.terminate() == 0)
    }

    @Test func fuelboard_whenHelpAsked_listsCommands() throws {
        let process = try ServiceProcess("fuelboard", ["--help"])
        #expect(try process.waitForExit() == 0)
        for command in ["ingest", "lookup", "health", "generate"] {
            #expect(process.log.contains(command))
        }
    }
}

extension ProcessLifecycleTests {
    @Test func fuelboard_whenGivenNoCommand_exits64() throws {
        let process = try ServiceProcess("fuelboard", [])
        #expect(try process.waitForExit() == 64)
        #expect(process.log.hasPrefix("fuelboard: no command given"))
    }

    @Test func fuelboard_whenCommandUnknown_exits64() throws {
        let process = try ServiceProcess("fuelboard", ["nonsense"])
        #expect(try process.waitForExit() == 64)
        #expect(process.log.contains("unknown command 'nonsense'"))
    }
}

extension ProcessLifecycleTests {
    @Test func locationCache_onADataDirectoryInUse_refusesToStart() throws {
        try withTemporaryDirectory { directory in
            let arguments = ["--data-dir", directory.path, "--bind", "tcp://127.0.0.1:*"]
            let first = try ServiceProcess("location-cache", arguments)
            _ = try first.endpoint()
            let second = try ServiceProcess("location-cache", arguments)
            #expect(try second.waitForExit() == 1)
            #expect(second.log.contains("is in use by another location-cache (pid \(first.pid))"), "\(second.log)")
            #expect(try first.terminate() == 0)
        }
    }
}

/// A store put back by root (as a restore by hand leaves it) under a service that runs as its own
/// user: SQLite opened it read-only, the service started and looked healthy, and every ingest
/// failed ("attempt to write a readonly database") while prices went stale (operator walkthrough).
struct ReadOnlyStoreTests {
    /// Runs only as root (to make the files another user's) with setpriv at hand.
    static var canSwitchUser: Bool {
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")
    }

    @Test(.enabled(if: canSwitchUser, "needs root and /usr/bin/setpriv to run a service as another user"),
          arguments: [("price-ingest", "price-ingest.sqlite"), ("location-cache", "location-cache.sqlite")])
    func aStoreThisUserCannotWrite_stopsTheStart_sayingWhose(binary: String, file: String) throws {
        try withTemporaryDirectory { directory in
            let data = directory.appendingPathComponent("data")
            // Every endpoint it binds on a free port (price-ingest publishes too).
            let ports = ["--bind", "tcp://127.0.0.1:*"] + (binary == "price-ingest" ? ["--bind-pub", "tcp://127.0.0.1:*"] : [])
            // The store made by root, as `cp` of a backup leaves it; the directory is the service's.
            let first = try ServiceProcess(binary, ["--data-dir", data.path] + ports)
            _ = try first.endpoint()
            #expect(try first.terminate() == 0)
            let service: UInt32 = 65534
            #expect(chown(directory.path, service, service) == 0 && chown(data.path, service, service) == 0)
            for entry in try FileManager.default.contentsOfDirectory(atPath: data.path) where entry != file {
                #expect(chown(data.appendingPathComponent(entry).path, service, service) == 0)
            }
            // `--check-config` as the service's user says so before a start fails on it (it said
            // nothing of the store).
            let check = try ServiceProcess(binary, ["--check-config", "--data-dir", data.path] + ports, asUser: service)
            #expect(try check.waitForExit() == 0)
            #expect(check.log.contains("store-usable=no (by this user, uid 65534: it belongs to uid 0, mode 600)"),
                    "\(check.log)")
            // Readable by all, as `cp` under a usual umask leaves it (the service made it 0600).
            #expect(chmod(data.appendingPathComponent(file).path, 0o644) == 0)
            let refused = try ServiceProcess(binary, ["--data-dir", data.path] + ports, asUser: service)
            #expect(try refused.waitForExit() == 73, "\(refused.log)")
            #expect(refused.log.contains("\(file) belongs to uid 0, not this process's uid 65534: chown it to the "
                + "service's user"), "\(refused.log)")
        }
    }
}

/// A data directory on a file system mounted read-only: `--check-config` said "configuration ok"
/// (exit 0) and the start then exited 73 saying "Permission denied" (operator walkthrough). Both
/// now refuse it as "Read-only file system". Runs in a private mount namespace (root, `unshare`).
struct ReadOnlyFileSystemTests {
    static var canMount: Bool {
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")
    }

    /// Runs `binary arguments` with `directory` a read-only tmpfs, in a mount namespace of its own.
    private func runOnReadOnly(_ directory: URL, _ binary: String, _ arguments: [String]) throws
        -> (status: Int32, output: String) {
        let path = ServiceProcess.binaryDirectory.appendingPathComponent(binary).path
        let run = try CommandRun(executable: "/usr/bin/unshare",
                                 ["-m", "sh", "-c", "mount -t tmpfs -o ro,size=1m tmpfs \"$0\" && exec \"$@\"",
                                  directory.path, path] + arguments)
        return (run.status, run.stderr + run.stdout)
    }

    @Test(.enabled(if: canMount, "needs root and /usr/bin/unshare to mount a read-only file system"),
          arguments: [["--check-config"], ["--bind", "tcp://127.0.0.1:*"]])
    func aDataDirectoryOnAReadOnlyFileSystem_isRefused(extra: [String]) throws {
        try withTemporaryDirectory { directory in
            let (status, output) = try runOnReadOnly(directory, "price-ingest", ["--data-dir", directory.path] + extra)
            if output.contains("mount:") {
                print("skipped: mounting is not allowed here (\(output.prefix(120)))")
                return
            }
            #expect(status == 73, "\(output)")
            #expect(output.contains("Read-only file system") && !output.contains("configuration ok"), "\(output)")
        }
    }
}
