import Foundation
import ServiceTesting
import Testing

/// `fuelboard ask`: what the CLI checks itself and how its prompt behaves, with no router needed
/// (the router endpoint given is served by nobody, so any request sent would fail as unavailable).
struct AskCommandTests {
    @Test(arguments: ["", "   "])
    func ask_whenUtteranceIsBlank_refusesItInOneLineWithoutAsking(utterance: String) throws {
        let run = try CommandRun.fuelboard(["ask", utterance, "--user", "u1", "--router", try unservedEndpoint(),
                                    "--timeout", "200ms"])
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
        #expect(run.stderrLines.count == 1, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("fuelboard: "))
        #expect(run.stderr.contains("utterance"))
    }

    @Test func ask_whenAtIsOffTheEarth_refusesItBeforeAsking() throws {
        let run = try CommandRun.fuelboard(["ask", "Ask FuelBoard for the cheapest diesel near me", "--user", "u1",
                                    "--at", "91,0", "--router", try unservedEndpoint(),
                                    "--timeout", "200ms"])
        #expect(run.status == 64)
        #expect(run.stderrLines == ["fuelboard: --at: latitude 91 is outside -90...90"])
    }

    /// A user id every service would refuse is the command line's mistake (64), found before asking.
    @Test(arguments: [("", "1 to 128 characters"), (String(repeating: "u", count: 129), "1 to 128 characters"),
                      ("tab\there", "control characters")])
    func ask_whenTheUserIdIsInvalid_refusesItBeforeAsking(user: String, rule: String) throws {
        let run = try CommandRun.fuelboard(["ask", "hi", "--user", user, "--router", try unservedEndpoint(),
                                            "--timeout", "200ms"])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderrLines.count == 1 && run.stderr.hasPrefix("fuelboard: --user: user must"))
        #expect(run.stderr.contains(rule))
    }

    @Test func askHelp_showsSessionAndJSONInTheUsage_andSaysAtIsSentEveryTurn() throws {
        let run = try CommandRun.fuelboard(["ask", "--help"])
        #expect(run.status == 0)
        let usage = try #require(run.stdout.split(separator: "\n").first)
        #expect(usage.contains("[--session ID]"))
        #expect(usage.contains("[--json]"))
        let at = try #require(run.stdout.split(separator: "\n").first { $0.hasPrefix("  --at ") })
        #expect(at.contains("every"), "\(at)")
    }

    @Test func askPrompt_whenInputEnds_endsItsOutputWithANewline() throws {
        let run = try CommandRun.fuelboard(["ask", "--user", "u1", "--router", try unservedEndpoint()], input: "")
        #expect(run.status == 0)
        #expect(run.stdout.hasSuffix("> \n"), "\(run.stdout.debugDescription)")
    }
}
