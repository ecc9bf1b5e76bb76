import Foundation
import Messages
import SampleFeeds
import ServiceKit

/// `fuelboard generate --stations N --out DIR`: the project's own deterministic sample feeds.
enum GenerateCommand {
    static let spec = (
        usage: "--out DIR [--stations N] [--seed S] [--as-of TIME] [--no-quirks]",
        summary: """
            Writes realistic UK-like fuel price feeds in the CMA format (one <retailer>.json per feed),
            deterministically from a seed: stations around towns weighted by population, a real brand
            mix and price spreads, and (unless --no-quirks) a few of the real feeds' quirks.
            Exit status: 0 written; 64 a bad option; 73 the feeds could not be written.
            """,
        options: [
            OptionSpec("--out", value: "DIR", help: "directory to write the feeds into (created if missing)"),
            OptionSpec("--stations", value: "N", help: "how many stations in all (default 3000, up to 2000000)"),
            OptionSpec("--seed", value: "S", help: "random seed (default 1)"),
            OptionSpec("--as-of", value: "TIME", help: "feed time, ISO-8601 (default: now)"),
            OptionSpec("--no-quirks", help: "clean feeds only (no sentinel prices, bad coordinates...)"),
        ]
    )

    static func run(_ cli: CLIContext) throws -> Int32 {
        let arguments = cli.arguments
        guard let out = arguments.value("--out") else { throw ConfigurationError("--out DIR is required") }
        let stations: Int = try arguments.value("--stations").map { text in
            guard let count = Int(text), (1...2_000_000).contains(count) else {
                throw ConfigurationError("--stations: expected 1 to 2000000, got '\(text)'")
            }
            return count
        } ?? 3000
        let seed: UInt64 = try arguments.value("--seed").map { text in
            guard let seed = UInt64(text) else { throw ConfigurationError("--seed: expected a number, got '\(text)'") }
            return seed
        } ?? 1
        let asOf: Date = try arguments.value("--as-of").map { text in
            guard let date = JSONCoding.parseISO8601(text) else {
                throw ConfigurationError("--as-of: expected an ISO-8601 time with offset, got '\(text)'")
            }
            guard (86_400.0...253_402_214_400.0).contains(date.timeIntervalSince1970) else {
                throw ConfigurationError("--as-of: expected a time from 1970-01-02 to 9999-12-31, got '\(text)'")
            }
            return date
        } ?? Date()
        var options = SampleFeedOptions(stations: stations, seed: seed, asOf: asOf)
        options.quirks = !arguments.has("--no-quirks")
        let directory = URL(fileURLWithPath: out, isDirectory: true)
        let started = ContinuousClock.now
        var lastReport = ContinuousClock.now
        let files: [URL]
        do {
            files = try SampleFeedGenerator(options: options).write(to: directory) { written, total in
                if ContinuousClock.now - lastReport > .seconds(1) || written == total {
                    lastReport = .now
                    CLIContext.printStatus("generated \(written)/\(total) stations")
                }
            }
        } catch SampleFeedError.invalidOptions(let reason) {
            throw ConfigurationError(reason)  // each option is checked above; this is a safety net
        } catch SampleFeedError.writeFailed(let problem) {
            CLIContext.printError("could not write \(problem)")
            return cantWriteExitCode
        }
        let seconds = (ContinuousClock.now - started) / .seconds(1)
        if cli.json {
            try cli.printJSON(Written(directory: out, feeds: files.map(\.lastPathComponent), stations: stations,
                                      seed: seed, asOf: asOf, quirks: options.quirks, seconds: seconds))
        } else {
            print("Wrote \(files.count) feed(s) with \(stations) stations to \(out) in "
                + (seconds < 1 ? String(format: "%.0f ms", seconds * 1000) : String(format: "%.1f s", seconds)) + ".")
        }
        return ServiceMain.ExitCode.success
    }

    /// The feeds could not be written (EX_CANTCREAT).
    static let cantWriteExitCode: Int32 = 73

    /// What `--json` prints.
    struct Written: Encodable {
        var directory: String
        var feeds: [String]
        var stations: Int
        var seed: UInt64
        var asOf: Date
        var quirks: Bool
        var seconds: Double
    }
}
