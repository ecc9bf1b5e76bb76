import Foundation
import ServiceKit

/// The `fuelboard` command-line client: one subcommand per file, dispatched from here.
public enum Fuelboard {
    /// Every subcommand: name, one-line summary, entry point.
    static let commands: [(name: String, summary: String, run: @Sendable (CLIContext) throws -> Int32)] = [
        ("ask", "ask the assistant something, or open an interactive prompt", AskCommand.run),
        ("ingest", "send feeds to price-ingest (a file, a URL or a directory of feeds), or remove a retailer", IngestCommand.run),
        ("lookup", "cheapest (or nearest) station selling a fuel near a point", LookupCommand.run),
        ("health", "ping every service of the topology and say which are down", HealthCommand.run),
        ("stats", "print every service's sys.stats counters", StatsCommand.run),
        ("plugins", "list the intent services plugged into the router", PluginsCommand.run),
        ("loadtest", "load fuel-lookup or the assistant path and report throughput and latency", LoadTestCommand.run),
        ("generate", "write deterministic sample CMA feeds (the demo's data, scale sets)", GenerateCommand.run),
    ]

    /// Runs the command line and returns the exit status.
    public static func main(_ arguments: [String]) -> Int32 {
        guard let name = arguments.first, !name.hasPrefix("-") else {
            if arguments.first == "--version" {
                print("fuelboard \(fuelboardVersion)")
                return ServiceMain.ExitCode.success
            }
            // Help asked for: stdout and 0. No command at all is a usage error (64), so a probe
            // that lost its arguments cannot pass by printing help; one line says what was wrong.
            if arguments.first == "--help" || arguments.first == "-h" {
                print(usage, terminator: "")
                return ServiceMain.ExitCode.success
            }
            // One line, as for every configuration error (the usage is --help's).
            let names = commands.map(\.name).joined(separator: ", ")
            CLIContext.printError(arguments.first.map {
                "expected a command first, got '\($0)' (fuelboard COMMAND [options]; commands: \(names); see --help)"
            } ?? "no command given (fuelboard COMMAND [options]; commands: \(names); see --help)")
            return ServiceMain.ExitCode.usage
        }
        guard let command = commands.first(where: { $0.name == name }) else {
            CLIContext.printError("unknown command '\(name)' (see fuelboard --help)")
            return ServiceMain.ExitCode.usage
        }
        do {
            return try command.run(try CLIContext(command: name, arguments: Array(arguments.dropFirst())))
        } catch let error as ConfigurationError {
            CLIContext.printError(error.description)
            if arguments.contains("--json") { CLIContext.printJSONError("usage", error.description, status: 64) }
            return ServiceMain.ExitCode.usage
        } catch CLIContext.HelpRequested.help {
            return ServiceMain.ExitCode.success
        } catch {
            CLIContext.printError("\(error)")
            return ServiceMain.ExitCode.failure
        }
    }

    static var usage: String {
        var text = "Usage: fuelboard COMMAND [options]\n\nThe FuelBoard command-line client.\n\nCommands:\n"
        for command in commands {
            text += "  " + command.name.padding(toLength: 10, withPad: " ", startingAt: 0) + command.summary + "\n"
        }
        text += "\nRun 'fuelboard COMMAND --help' for a command's options. Every command reads the topology\n"
        text += "from --router/--ingest/--lookup/... flags or FUELBOARD_* environment variables.\n"
        return text
    }
}
