import Foundation
@testable import FuelboardCLI
import Messages
import ServiceTesting
import Testing

/// `fuelboard ask` as an interactive prompt against the router and the real services behind it.
@Suite(.serialized)
struct AskPromptCommandTests {
    /// A phone sends its location with every ask: so does the prompt started with `--at`, so an ask
    /// after "forget my location" / "yes" still has a location to search from.
    @Test func askPrompt_withAt_sendsTheLocationOnEveryTurn() throws {
        let services = try RealServices()
        defer { services.stop() }
        let turns = ["Ask FuelBoard to forget my location", "yes", "Ask FuelBoard for the cheapest diesel near me"]
        let output = try Self.prompt(["--user", "prompt-user", "--at", "53.7830,-1.0670", "--json",
                                      "--now", "2025-11-29T07:06:40Z", "--router", services.routerEndpoint],
                                     input: turns.joined(separator: "\n") + "\n")
        let outcomes = output.split(separator: "\n").compactMap { line -> String? in
            guard let range = line.range(of: #""outcome" : ""#) else { return nil }
            return String(line[range.upperBound...].prefix { $0 != "\"" })
        }
        #expect(outcomes == ["confirmForget", "forgotten", "found"], "\(output)")
    }

    /// The prompt carries the answer's session to the next turn: "take me there" after the
    /// cheapest needs no app name, and gives directions to the station just named.
    @Test func askPrompt_afterAnAnswer_takeMeThere_givesDirectionsToIt() throws {
        let services = try RealServices()
        defer { services.stop() }
        let turns = ["Ask FuelBoard for the cheapest diesel near me", "take me there"]
        let output = try Self.prompt(["--user", "prompt-user", "--at", "53.7830,-1.0670",
                                      "--now", "2025-11-29T07:06:40Z", "--router", services.routerEndpoint],
                                     input: turns.joined(separator: "\n") + "\n")
        let said = output.split(separator: "\n").filter { $0.hasPrefix("> ") }.map { $0.dropFirst(2) }
        #expect(said.count == 3, "two answers, then the prompt at the end of input: \(output)")
        // "The cheapest diesel near you is Tesco Selby at £1.399, ..."
        let first = String(try #require(said.first))
        let named = try #require(first.firstRange(of: " is ")?.upperBound)
        let priced = try #require(first.firstRange(of: " at £")?.lowerBound)
        let station = first[named..<priced]
        #expect(said.first?.hasPrefix("The cheapest diesel") == true, "\(output)")
        #expect(said.count > 1 && said[1].hasPrefix("Here are directions to \(station)"), "\(output)")
    }

    /// CONTRACT.md: `fuelboard ask "<utterance>"` prints the dialog. Read by a script (stdout not a
    /// terminal) it prints exactly that; the card and the directions URL follow in a terminal or
    /// with --card.
    @Test func ask_readByAScript_printsTheDialogAlone_andTheCardOnlyWhenAsked() throws {
        let services = try RealServices()
        defer { services.stop() }
        let common = ["Get directions to the cheapest diesel near me FuelBoard", "--user", "script", "--at",
                      "53.7830,-1.0670", "--now", "2025-11-29T07:06:40Z", "--router", services.routerEndpoint]
        let plain = try Self.prompt(common, input: "")
        let lines = plain.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 2 && lines[1].isEmpty, "\(plain)")
        #expect(plain.hasPrefix("Here are directions to "), "\(plain)")
        let card = try Self.prompt(common + ["--card"], input: "")
        #expect(card.hasPrefix(plain), "\(card)")
        #expect(card.contains("┌") && card.contains("Directions: https://maps.apple.com/?daddr="), "\(card)")
        #expect(!card.contains("may be out of date"))
        var later = common
        later[later.firstIndex(of: "2025-11-29T07:06:40Z")!] = "2025-12-05T07:00:00Z"
        let stale = try Self.prompt(later + ["--card"], input: "")
        #expect(stale.contains("prices as of 29 Nov at 6:30 AM (may be out of date)"), "\(stale)")
    }

    /// Runs `fuelboard ask ARGUMENTS` with `input` on stdin; returns stdout once it exits 0.
    private static func prompt(_ arguments: [String], input: String) throws -> String {
        let run = try CommandRun.fuelboard(["ask"] + arguments, input: input)
        #expect(run.status == 0, "\(run.stderr)")
        return run.stdout
    }
}

/// The prompt's example names the app the services are told (it said "FuelBoard" to a stack
/// started with another name: docs walkthrough).
struct AskPromptAppNameTests {
    @Test func thePromptsExample_namesTheAppOfFUELBOARD_APP_NAME() throws {
        let process = try ServiceProcess("fuelboard", ["ask", "--user", "x", "--router", try unservedEndpoint()],
                                         environment: ["FUELBOARD_APP_NAME": "Petrolhead"])
        #expect(try process.waitForExit() == 0)
        #expect(process.log.contains("Ask Petrolhead something (e.g. \"Ask Petrolhead for the cheapest diesel near me\")"),
                "\(process.log)")
    }
}

/// `fuelboard ask`'s hints on stderr: what a person at the command line may not know.
struct AskHintTests {
    private func reply(_ code: AssistantCode, _ outcome: DialogOutcome, session: String? = nil) -> AssistantReply {
        AssistantReply(code: code, dialog: "…", session: session, outcome: outcome)
    }

    @Test func aQuestionAskedBackByAOneOffAsk_saysHowToAnswerIt() {
        let asked = AssistantAskRequest(user: "z2", utterance: "Ask FuelBoard to forget my location",
                                        location: Coordinate(lat: 53.8, lng: -1.5))
        let hints = AskCommand.hints(for: reply(.confirmationRequired, .confirmForget, session: "abc"), asked: asked,
                                     atThePrompt: false)
        #expect(hints == ["to answer, run fuelboard ask \"<answer>\" --user z2 --at 53.8,-1.5 --session abc "
            + "(or fuelboard ask --user z2 --at 53.8,-1.5 for a conversation at a prompt)"])
        #expect(AskCommand.hints(for: reply(.confirmationRequired, .confirmForget, session: "abc"), asked: asked,
                                 atThePrompt: true).isEmpty, "the prompt carries the session itself")
        #expect(AskCommand.hints(for: reply(.success, .found, session: "abc"), asked: asked, atThePrompt: false)
            .isEmpty, "an answer's follow-up session asks nothing")
    }

    @Test func anAnswerGivenWithoutABackend_saysWhich() {
        let asked = AssistantAskRequest(user: "u", utterance: "Ask FuelBoard for the cheapest diesel near me")
        var answer = reply(.success, .found)
        answer.degraded = ["dialog-renderer", "location-cache"]
        #expect(AskCommand.hints(for: answer, asked: asked, atThePrompt: true)
            == ["answered without dialog-renderer and location-cache: the router could not use their answers "
                + "(down, too slow, or another service at its endpoint: fuelboard health says which)"])
    }

    @Test func noLocation_withoutAt_pointsToAt() {
        let asked = AssistantAskRequest(user: "u", utterance: "Ask FuelBoard for the cheapest diesel near me")
        #expect(AskCommand.hints(for: reply(.failure, .noLocation), asked: asked, atThePrompt: false)
            == ["give your location with --at LAT,LNG (for example --at 53.7997,-1.5492)"])
    }

    @Test func outsideTheUK_withLatitudeAndLongitudeSwapped_saysSo() {
        var asked = AssistantAskRequest(user: "u", utterance: "Ask FuelBoard for the cheapest diesel near me",
                                        location: Coordinate(lat: -1.5492, lng: 53.7997))
        #expect(AskCommand.hints(for: reply(.failure, .outsideCoverage), asked: asked, atThePrompt: false)
            == ["--at is LAT,LNG (latitude first): did you mean --at 53.7997,-1.5492?"])
        asked.location = Coordinate(lat: 48.8566, lng: 2.3522)  // Paris, the right way round
        #expect(AskCommand.hints(for: reply(.failure, .outsideCoverage), asked: asked, atThePrompt: false).isEmpty)
    }
}
