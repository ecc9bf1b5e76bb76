import Foundation
import Messages
import ServiceKit

/// `fuelboard ask "..." --user U [--at LAT,LNG]`, or an interactive prompt without an utterance.
/// `--at` goes with every ask, each turn of the prompt included, as a phone sends its location.
enum AskCommand {
    static let spec = (
        usage: "[\"UTTERANCE\"] [--user USER] [--at LAT,LNG] [--now TIME] [--locale L] [--session ID] [--card] [--json]",
        summary: """
            Asks the assistant (intent-router's assistant.ask) and prints what it says; in a terminal
            (or with --card) the snippet card drawn as text and the directions URL follow it, so a
            script reading stdout gets the dialog alone. Without an utterance, opens a prompt that keeps the conversation's
            session across turns (answer its questions, say yes or no, 'quit' or end of input to leave)
            and sends the --at location with every turn, as a phone sends its location with every ask.
            """,
        options: [
            OptionSpec("--user", value: "USER", help: "who is asking (default: $USER)"),
            OptionSpec("--at", value: "LAT,LNG",
                       help: "the user's location now, sent with every ask (each turn of the prompt too); "
                           + "stored as last-known"),
            OptionSpec("--now", value: "TIME", help: "render as if it were this ISO-8601 time (the same words every run)"),
            OptionSpec("--locale", value: "LOCALE", help: "spoken language (default en-GB)"),
            OptionSpec("--session", value: "ID", help: "continue a conversation from an earlier reply"),
            OptionSpec("--card", help: "draw the card and the directions URL even when stdout is not a terminal"),
        ]
    )

    static func run(_ cli: CLIContext) throws -> Int32 {
        let arguments = cli.arguments
        let user = arguments.value("--user") ?? ProcessInfo.processInfo.environment["USER"] ?? "cli"
        do {
            try UserID.check(user)
        } catch {
            throw ConfigurationError("--user: \(error.message)")
        }
        let location = try arguments.value("--at").map { text throws(ConfigurationError) in
            try CLIContext.coordinate(text, option: "--at")
        }
        let utterance = arguments.positionals.joined(separator: " ")
        if !arguments.positionals.isEmpty && utterance.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            throw ConfigurationError("the utterance is empty: ask something, or leave it out for the prompt")
        }
        let now = try arguments.value("--now").map { text in
            guard let date = JSONCoding.parseISO8601(text) else {
                throw ConfigurationError("--now: expected an ISO-8601 time with offset, got '\(text)'")
            }
            return date
        }
        let client = try cli.client(cli.topology.router, retries: 0)
        var request = AssistantAskRequest(user: user, utterance: "", location: location,
                                          session: arguments.value("--session"), locale: arguments.value("--locale"),
                                          now: now)
        if !arguments.positionals.isEmpty {
            request.utterance = utterance
            return try ask(request, client, cli)
        }
        // The app's name as the stack's services are told it (FUELBOARD_APP_NAME), for the example.
        let app = ProcessInfo.processInfo.environment[AppNameSetting.environment]
            .flatMap { AppNameSetting.isWritable($0) ? $0 : nil } ?? AppNameSetting.defaultName
        print("Ask \(app) something (e.g. \"Ask \(app) for the cheapest diesel near me\"); 'quit' to leave.")
        while true {
            print("> ", terminator: "")
            guard let line = readLine() else {
                print()  // end of input (Ctrl-D): leave the shell's prompt on a line of its own
                break
            }
            let utterance = line.trimmingCharacters(in: .whitespaces)
            if utterance.isEmpty { continue }
            if ["quit", "exit", "bye"].contains(utterance.lowercased()) { break }
            request.utterance = utterance
            // The location stays (every turn carries it); the session follows the replies, and a turn
            // that got none (the router unreachable a moment) leaves the conversation where it was.
            if let reply = try? send(request, client, cli) { request.session = reply.session }
        }
        return ServiceMain.ExitCode.success
    }

    private static func ask(_ request: AssistantAskRequest, _ client: RequestClient, _ cli: CLIContext) throws
        -> Int32
    {
        do {
            let reply = try send(request, client, cli)
            return reply.code == .failure ? ServiceMain.ExitCode.failure : ServiceMain.ExitCode.success
        } catch let error as ServiceError {
            return CLIContext.exitCode(for: error)
        }
    }

    private static func send(_ request: AssistantAskRequest, _ client: RequestClient, _ cli: CLIContext) throws
        -> AssistantReply
    {
        let reply: AssistantReply
        do {
            reply = try client.call(.assistantAsk, request, as: AssistantReply.self)
        } catch {
            CLIContext.printError("ask failed: \(error.message) [\(error.code.rawValue)]")
            throw error
        }
        if cli.json {
            try cli.printJSON(reply)
        } else {
            print(render(reply, card: cli.arguments.has("--card") || isatty(STDOUT_FILENO) == 1))
            for hint in hints(for: reply, asked: request, atThePrompt: cli.arguments.positionals.isEmpty) {
                CLIContext.printError("hint: " + hint)
            }
        }
        return reply
    }

    /// What a person at the command line may not know (on stderr: stdout stays the dialog alone):
    /// how to answer a question asked back by a one-off ask, that `--at` gives the location the
    /// assistant asks for, and that it reads LAT,LNG.
    static func hints(for reply: AssistantReply, asked request: AssistantAskRequest, atThePrompt: Bool) -> [String] {
        var hints: [String] = []
        let asksBack: Set<AssistantCode> = [.needsValue, .confirmationRequired, .disambiguation]
        if !atThePrompt, let session = reply.session, asksBack.contains(reply.code) {
            let at = request.location.map { " --at \(Self.text($0))" } ?? ""
            hints.append("to answer, run fuelboard ask \"<answer>\" --user \(request.user)\(at) --session \(session) "
                + "(or fuelboard ask --user \(request.user)\(at) for a conversation at a prompt)")
        }
        if reply.outcome == .noLocation, request.location == nil {
            hints.append("give your location with --at LAT,LNG (for example --at 53.7997,-1.5492)")
        }
        if let degraded = reply.degraded, !degraded.isEmpty {
            // Down, slow, or another service at its endpoint (it answered unknown_type: operator QA).
            hints.append("answered without \(degraded.joined(separator: " and ")): the router could not use "
                + (degraded.count == 1 ? "its answer" : "their answers") + " (down, too slow, or another service at its "
                + "endpoint: fuelboard health says which)")
        }
        if reply.outcome == .outsideCoverage, let at = request.location,
           let hint = CLIContext.swappedCoordinatesHint(at) {
            hints.append(hint)
        }
        return hints
    }

    private static func text(_ point: Coordinate) -> String {
        "\(point.lat),\(point.lng)"
    }

    /// The dialog, then (with `card`) the options to choose from, the snippet as a small card and
    /// the URL the reply opens: "Directions" for the maps link of a directions answer, "Opens"
    /// for another (a plug-in's own page).
    static func render(_ reply: AssistantReply, card: Bool = true) -> String {
        var text = reply.dialog
        guard card else { return text }
        for (index, option) in (reply.options ?? []).enumerated() { text += "\n  \(index + 1). \(option.title)" }
        if let snippet = reply.snippet { text += "\n" + SnippetCard.render(snippet) }
        if let url = reply.opensURL {
            let directions = reply.outcome == .directions || reply.outcome == .nearestDirections
            text += (directions ? "\nDirections: " : "\nOpens: ") + url
        }
        return text
    }
}

/// A snippet drawn as a box of text lines.
enum SnippetCard {
    static func render(_ snippet: Snippet) -> String {
        var lines = [snippet.title]
        if let subtitle = snippet.subtitle { lines.append(subtitle) }
        if let price = snippet.price { lines.append(price) }
        if let freshness = snippet.freshness { lines.append(freshness + (snippet.stale == true ? " (may be out of date)" : "")) }
        if let postcode = snippet.postcode { lines.append(postcode) }
        let width = lines.map(\.count).max() ?? 0
        let border = String(repeating: "─", count: width + 2)
        var card = "┌\(border)┐\n"
        for line in lines {
            card += "│ " + line + String(repeating: " ", count: width - line.count) + " │\n"
        }
        return card + "└\(border)┘"
    }
}
