import Foundation
import ServiceTesting
import TestSupport
import Testing
import ZeroMQ

/// `fuelboard` itself: what it says when the command line names no command it knows.
struct FuelboardCommandTests {
    /// One line, as CONTRACT.md asks of a configuration error (the whole usage came after it: 17 lines).
    @Test func fuelboard_whenGivenNoCommand_saysSoInOneLine() throws {
        let run = try CommandRun.fuelboard([])
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
        #expect(run.stderrLines == ["fuelboard: no command given (fuelboard COMMAND [options]; commands: ask, ingest, "
            + "lookup, health, stats, plugins, loadtest, generate; see --help)"])
    }

    @Test func fuelboard_whenFirstArgumentIsAnUnknownOption_namesItInOneLine() throws {
        let run = try CommandRun.fuelboard(["--bogus"])
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
        #expect(run.stderrLines.count == 1)
        #expect(run.stderrLines.first?.hasPrefix("fuelboard: expected a command first, got '--bogus' ") == true)
    }

    /// `-h` after a command is its `--help` (it was an unknown option, exit 64).
    @Test func aCommand_takesDashH_asHelp() throws {
        let run = try CommandRun.fuelboard(["loadtest", "-h"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("Usage: fuelboard loadtest"))
    }

    /// A word a command does not take is refused before anything runs (`stats lookup` printed every
    /// service's figures, `lookup extra` looked up without it).
    @Test(arguments: [["stats", "lookup"], ["health", "extra"], ["plugins", "extra"],
                      ["lookup", "extra", "--fuel", "B7", "--at", "53.8,-1.5"], ["loadtest", "extra"],
                      ["generate", "extra", "--out", "/nonexistent-generate-dir"]])
    func aCommand_thatTakesNoWords_refusesAStrayOne(_ arguments: [String]) throws {
        let run = try CommandRun.fuelboard(arguments + ["--timeout", "100ms"])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stdout.isEmpty)
        #expect(run.stderrLines == ["fuelboard: unexpected argument '\(arguments[1])' "
            + "(\(arguments[0]) takes options only: see --help)"])
    }

    @Test func generate_withJSON_printsWhatItWrote() throws {
        try withTemporaryDirectory { directory in
            let out = directory.appendingPathComponent("feeds").path
            let run = try CommandRun.fuelboard(["generate", "--out", out, "--stations", "40", "--seed", "7",
                                                "--as-of", "2026-11-29T06:30:00Z", "--json"])
            #expect(run.status == 0, "\(run.stderr)")
            let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            let feeds = try #require(report["feeds"] as? [String])
            #expect(!feeds.isEmpty && feeds.allSatisfy { $0.hasSuffix(".json") })
            #expect(Set(feeds) == Set(try FileManager.default.contentsOfDirectory(atPath: out)))
            #expect(report["stations"] as? Int == 40 && report["seed"] as? Int == 7)
            #expect(report["asOf"] as? String == "2026-11-29T06:30:00Z" && report["directory"] as? String == out)
        }
    }

    @Test func generate_withAnAsOfOutOfRange_isABadOption() throws {
        let run = try CommandRun.fuelboard(["generate", "--out", "/nonexistent-generate-dir", "--as-of",
                                            "1969-01-01T00:00:00Z"])
        #expect(run.status == 64)
        #expect(run.stderrLines == ["fuelboard: --as-of: expected a time from 1970-01-02 to 9999-12-31, "
            + "got '1969-01-01T00:00:00Z'"])
    }

    /// Where the feeds cannot go: one line naming the path and why, exit 73 (a CocoaError's dump before).
    @Test func generate_intoAPathUnderAFile_saysWhyInOneLine_andExits73() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("plain")
            try Data("x".utf8).write(to: file)
            let run = try CommandRun.fuelboard(["generate", "--out", file.appendingPathComponent("feeds").path,
                                                "--stations", "5"])
            #expect(run.status == 73)
            #expect(run.stdout.isEmpty)
            #expect(run.stderrLines == ["fuelboard: could not write \(file.path)/feeds: Not a directory"])
        }
    }

    /// An empty or unknown --only lists what it takes, short names too, in one line (64).
    @Test(arguments: [("", "--only: no service named"), ("pricing", "--only: unknown service pricing")])
    func health_withAnOnlyNamingNoKnownService_listsTheNames(only: String, start: String) throws {
        let run = try CommandRun.fuelboard(["health", "--only", only])
        #expect(run.status == 64)
        #expect(run.stderrLines == ["fuelboard: \(start) (expected some of intent-router, price-ingest, fuel-lookup, "
            + "location-cache, dialog-renderer, or router, ingest, lookup, location, dialog)"])
    }

    /// "All 1 services answer." (QA): one service asked is said as one.
    @Test func health_ofOneServiceThatAnswers_saysSoInTheSingular() throws {
        let stack = try DataPathStack(startLookup: false)
        let run = try CommandRun.fuelboard(["health", "--only", "ingest", "--ingest", stack.ingestEndpoint])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasSuffix("The service answers.\n"), "\(run.stdout)")
    }

    @Test func fuelboard_whenHelpAsked_printsUsageOnStdoutAndExits0() throws {
        let run = try CommandRun.fuelboard(["--help"])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("Usage: fuelboard COMMAND"))
        #expect(run.stderr.isEmpty)
    }
}
