import Foundation
@testable import FuelboardCLI
import Messages
import ServiceKit
import Testing

/// `fuelboard loadtest` refuses bad option values before it sends anything, each with one line
/// naming the option (exit 64), and reads good ones as the run needs them.
struct LoadTestOptionsTests {
    private static func options(_ arguments: [String]) throws -> LoadTestOptions {
        let parsed = try ParsedArguments(arguments, options: LoadTestCommand.spec.options + CLIContext.commonOptions)
        return try LoadTestOptions(parsed, lookup: "tcp://127.0.0.1:1", router: "tcp://127.0.0.1:2",
                                   timeout: .seconds(5))
    }

    /// The one line an option is refused with, or nil when it is accepted.
    private static func refusal(_ arguments: [String]) -> String? {
        do {
            _ = try options(arguments)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: [
        (["--fuel", "XX"], "--fuel: expected a CMA fuel code (E10, E5, B7, SDV), a word for one (unleaded, diesel...) "
            + "or mixed, got 'XX'"),
        (["--radius", "101"], "--radius: expected a number above 0 and at most 100, got '101'"),
        (["--threads", "4", "--concurrency", "8", "--requests", "3"], "--requests: at least --threads (4), got 3"),
        (["--spin"], "--spin: applies only to an open loop (--rate)"),
        (["--keep-users"], "--keep-users: applies only to --target router"),
        (["--duration", "0s"], "--duration: must be more than 0, got '0s'"),
        (["--duration", "0"], "--duration: must be more than 0, got '0'"),
        (["--target", "router", "--type", "nearest"], "--type: applies only to --target lookup"),
        (["--target", "router", "--fuel", "E10"], "--fuel: applies only to --target lookup"),
        (["--rate", "100", "--concurrency", "5"], "--rate and --concurrency: give one, not both"),
        (["--concurrency", "2.5"], "--concurrency: expected a whole number"),
        (["--requests", "1e300"], "--requests: expected a whole number"),
        (["--rate", "1e300"], "--rate: expected a number above 0"),
        (["--duration", "1e30s"], "--duration: at most a week (168h), got '1e30s'"),
        (["--duration", "100000h"], "--duration: at most a week (168h), got '100000h'"),
        (["--warmup", "soon"], "--warmup: expected a duration"),
        (["--duration", "10"], "--duration: '10' has no unit: write 10s, 10m or 10h"),
        (["--warmup", "1"], "--warmup: '1' has no unit: write 1s, 1m or 1h"),
        (["--duration", "200h"], "--duration: at most a week (168h), got '200h'"),
        (["--target", "router", "--no-check"], "--no-check: applies only to --target lookup"),
        (["--max-p99", "10"], "--max-p99: '10' has no unit: write 10s, 10m or 10h"),
        (["--seed", "-1"], "--seed: expected a whole number from 0 to 18446744073709551615, got '-1'"),
        (["--svg", "/nonexistent-loadtest-dir/x.svg"], "--svg: no directory /nonexistent-loadtest-dir"),
        (["--connections", "0"], "--connections: expected a whole number from 1 to 63, got '0'"),
        (["--connections", "65", "--rate", "100"], "--connections: expected a whole number from 1 to 63, got '65'"),
        (["--connections", "5", "--concurrency", "4"], "--connections: at most --concurrency (4) in a closed loop"),
        (["--connections", "2"], "--connections: at most --concurrency (1) in a closed loop"),
        (["--threads", "0"], "--threads: expected a whole number from 1 to 64, got '0'"),
        (["--threads", "3", "--concurrency", "2"], "--threads: at most --concurrency (2) in a closed loop"),
        (["--threads", "2", "--concurrency", "8", "--connections", "1"], "--connections: at least --threads (2)"),
        (["--threads", "2", "--rate", "9", "--connections", "127"],
         "--connections: expected a whole number from 1 to 126, got '127' (at most 63 per thread"),
        (["--rate", "9", "--connections", "64"], "--connections: expected a whole number from 1 to 63, got '64'"),
    ])
    func aBadValue_isRefusedWithOneLineNamingIt(arguments: [String], line: String) {
        let refusal = Self.refusal(arguments)
        #expect(refusal?.hasPrefix(line) == true, "\(arguments): \(refusal ?? "accepted")")
        #expect(refusal?.contains("\n") != true)
    }

    @Test func appName_isTheRoutersOnly_fromTheFlagOrTheEnvironment() throws {
        let parsed = { (arguments: [String]) in
            try ParsedArguments(arguments, options: LoadTestCommand.spec.options + CLIContext.commonOptions)
        }
        let flag = try LoadTestOptions(parsed(["--target", "router", "--app-name", "Petrolhead"]), lookup: "tcp://127.0.0.1:1",
                                       router: "tcp://127.0.0.1:2", timeout: .seconds(5))
        #expect(flag.appName == "Petrolhead")
        let environment = try LoadTestOptions(parsed(["--target", "router"]), lookup: "tcp://127.0.0.1:1",
                                              router: "tcp://127.0.0.1:2", timeout: .seconds(5),
                                              environment: ["FUELBOARD_APP_NAME": "Pumpwise"])
        #expect(environment.appName == "Pumpwise")
        #expect(try Self.options(["--target", "router"]).appName == "FuelBoard")
        #expect(Self.refusal(["--app-name", "Petrolhead"])?.hasPrefix("--app-name: applies only to --target router") == true)
        #expect(Self.refusal(["--target", "router", "--app-name", " "]) == "--app-name: ' ' cannot be the app name")
    }

    @Test func aChartPathThatIsADirectory_isRefused() {
        let directory = FileManager.default.temporaryDirectory.path
        #expect(Self.refusal(["--svg", directory]) == "--svg: \(directory) is a directory")
    }

    @Test func aChartPathInAnExistingDirectory_isAccepted() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("loadtest-\(UUID()).svg").path
        #expect(try Self.options(["--svg", path]).chartPath == path)
    }

    @Test func connections_defaultToOne_andMayReachTheRequestsInFlight_orAnyNumberInAnOpenLoop() throws {
        #expect(try Self.options([]).settings.connections == 1)
        #expect(try Self.options(["--concurrency", "50", "--connections", "50"]).settings.connections == 50)
        #expect(try Self.options(["--rate", "10", "--connections", "63"]).settings.connections == 63)
        // Every generator thread has a connection of its own unless told otherwise.
        #expect(try Self.options(["--concurrency", "8", "--threads", "4"]).settings.connections == 4)
    }

    @Test func fuelWords_areReadAsTheirCodes() throws {
        #expect(try Self.options(["--fuel", "diesel"]).fuel == "B7")
        #expect(try Self.options(["--fuel", "Super Unleaded"]).fuel == "E5")
    }

    @Test func fuelCodes_areReadInAnyCase_andMixedIsKept() throws {
        #expect(try Self.options(["--fuel", "e10"]).fuel == "E10")
        #expect(try Self.options(["--fuel", "sdv"]).fuel == "SDV")
        #expect(try Self.options(["--fuel", "Mixed"]).fuel == "mixed")
        #expect(try Self.options([]).fuel == "B7")
    }

    @Test func theDefaults_areAClosedLoopOfOneOnTheLookup() throws {
        let options = try Self.options([])
        #expect(options.target == .lookup && options.type == .lookupCheapest)
        #expect(options.settings.endpoint == "tcp://127.0.0.1:1")
        #expect(options.settings.concurrency == 1 && options.settings.rate == nil)
        #expect(options.settings.duration == .seconds(10) && options.settings.warmup == .seconds(1))
        #expect(options.settings.timeout == .seconds(5))
    }

    @Test func theRouterTarget_asksTheRouter_andAZeroWarmUpIsAllowed() throws {
        let options = try Self.options(["--target", "router", "--rate", "250", "--warmup", "0s", "--duration", "500ms"])
        #expect(options.type == .assistantAsk && options.settings.endpoint == "tcp://127.0.0.1:2")
        #expect(options.settings.rate == 250 && options.settings.warmup == .zero)
        #expect(options.settings.duration == .milliseconds(500))
    }

    @Test func theHelpsLimitOnConnections_isTheOneTheOptionChecks() throws {
        let help = try #require(LoadTestCommand.spec.options.first { $0.name == "--connections" }?.help)
        #expect(help.contains("at most \(ParallelLoad.maxConnectionsPerThread) per thread"), "\(help)")
        #expect(ParallelLoad.maxConnectionsPerThread == 63)
    }

    @Test func theHelp_listsEveryExitStatus_andPointsToTheJSONFields() {
        let summary = LoadTestCommand.spec.summary
        for status in ["0 passed", "1 a request failed", "3 an open loop fell BEHIND", "69 the endpoint",
                       "64 a bad option", "73 the --svg chart", "130 Ctrl-C"] {
            #expect(summary.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "  ", with: " ")
                .contains(status), "\(status)")
        }
        #expect(summary.contains("The --json report"))
    }
}
