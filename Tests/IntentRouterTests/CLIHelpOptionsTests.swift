@testable import FuelboardCLI
import ServiceKit
import Testing

/// Each `fuelboard` command's `--help` lists the endpoints it talks to, not every one of the
/// topology (`generate` listed `--ingest-pub` and `--data-dir`, which no command uses).
struct CLIHelpOptionsTests {
    private func shown(_ command: String) -> [String] {
        CLIContext.shownOptions(CLIContext.options(for: command).options, command: command).map(\.name)
    }

    @Test func askHelp_listsTheRouterOnly_ofTheTopology() {
        let names = shown("ask")
        #expect(names.contains("--router"))
        #expect(!names.contains("--lookup") && !names.contains("--ingest-pub") && !names.contains("--data-dir"))
        #expect(names.contains("--json") && names.contains("--timeout") && names.contains("--help"))
    }

    @Test func generateHelp_listsNoEndpoint() {
        let names = Set(shown("generate"))
        #expect(names.isDisjoint(with: Topology.options.map(\.name)))
        #expect(names.contains("--out") && names.contains("--json"))
        #expect(!names.contains("--timeout"), "generate sends no request")
    }

    @Test func everyCommand_listsOnlyTopologyFlagsItUses_andTheyAreStillAccepted() throws {
        for command in ["ask", "ingest", "lookup", "health", "stats", "plugins", "generate", "loadtest"] {
            let listed = Set(shown(command)).intersection(Topology.options.map(\.name))
            #expect(listed == CLIContext.endpointFlags[command], "\(command)")
            #expect(!listed.contains("--data-dir") && !listed.contains("--ingest-pub"), "\(command)")
        }
        // Accepted though not listed: one environment or wrapper script serves every command.
        let parsed = try ParsedArguments(["--data-dir", "x", "--lookup", "tcp://127.0.0.1:1"],
                                         options: CLIContext.options(for: "ask").options + CLIContext.commonOptions)
        #expect(parsed.value("--lookup") == "tcp://127.0.0.1:1")
    }

    /// Every command's --timeout is at most a week, as a load test's --duration (it was unbounded).
    @Test func aTimeoutOverAWeek_isRefused_namingTheLimit() throws {
        let error = #expect(throws: ConfigurationError.self) {
            try CLIContext(command: "loadtest", arguments: ["--timeout", "400h"])
        }
        #expect(error?.description == "--timeout: at most a week (168h), got '400h'")
        #expect(try CLIContext(command: "ask", arguments: ["--timeout", "168h"]).timeout == .seconds(7 * 86_400))
    }
}
