import Foundation
import IntentRouter
import ServiceKit

// intent-router: configure, start, serve until SIGTERM/SIGINT, exit 0.
let main = ServiceMain(
    name: "intent-router",
    summary: """
        The front door: answers assistant.ask (an utterance) and assistant.run (an intent with its
        parameters). Matches phrases that name the app, runs resolve -> confirm -> handle with
        sessions for follow-up questions, and asks location-cache, fuel-lookup and dialog-renderer,
        answering within the deadline even when they are down.
        """,
    options: [
        AppNameSetting.option("the app name every phrase must contain (give dialog-renderer the same)"),
        OptionSpec("--session-ttl", value: "DURATION", help: "how long a question waits for its answer (default 30s)"),
        OptionSpec("--deadline", value: "DURATION", help: "longest time before an answer is given (default 2s)"),
        OptionSpec("--max-sessions", value: "N",
                   help: "open questions held at most, beyond which the oldest are dropped: 1000 to 10000000 "
                       + "(default 100000)"),
        OptionSpec("--plugins", value: "URL",
                   help: "where intent services connect [$FUELBOARD_PLUGINS, default \(RouterConfiguration.defaultPlugins)]"),
    ],
    uses: ["--router", "--lookup", "--location", "--dialog"])

var configuration = RouterConfiguration(topology: main.topology,
                                        endpoint: main.bindEndpoint(default: main.topology.router))
configuration.appName = main.appName { name in
    AppNameSetting.isWritable(name) && !AppName.spokenForms(name).isEmpty
}
configuration.sessionTTL = main.durationOption("--session-ttl", default: RouterConfiguration.defaultSessionTTL)
configuration.deadline = main.durationOption("--deadline", default: RouterConfiguration.defaultDeadline)
if let text = main.arguments.value("--max-sessions") {
    guard let count = Int(text), RouterConfiguration.maxSessionsRange.contains(count) else {
        ServiceMain.usageFailure(name: main.name, ConfigurationError(
            "--max-sessions: expected a whole number from 1000 to 10000000, got '\(text)'"))
    }
    configuration.maxSessions = count
}
configuration.plugins = main.arguments.value("--plugins") ?? ProcessInfo.processInfo.environment["FUELBOARD_PLUGINS"]
    ?? RouterConfiguration.defaultPlugins
do {
    try Endpoint.validateBind(configuration.plugins, setting: "--plugins / FUELBOARD_PLUGINS")
    try Endpoint.validateDistinct(("--bind", configuration.endpoint), ("--plugins", configuration.plugins))
} catch {
    ServiceMain.usageFailure(name: main.name, error)
}
main.finishConfigurationCheck([
    "bind": configuration.endpoint,
    "plugins": configuration.plugins,
    "lookup": main.topology.lookup,
    "location": main.topology.location,
    "dialog": main.topology.dialog,
    "session-ttl": ServiceMain.secondsText(configuration.sessionTTL),
    "deadline": ServiceMain.secondsText(configuration.deadline),
    "max-sessions": "\(configuration.maxSessions)",
    "app-name": configuration.appName,
])

do {
    let server = try IntentRouterService.makeServer(context: main.context, configuration: configuration,
                                                    logger: main.logger)
    main.run(server)
} catch {
    main.logger.cannotStart(error)
    exit(ServiceMain.ExitCode.failure)
}
