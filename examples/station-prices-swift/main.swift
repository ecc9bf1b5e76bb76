import Foundation
import IntentKit
import ServiceKit

// station-prices: an example intent service. Connects to intent-router's plug-in endpoint
// (--plugins URL) and answers "what does diesel cost at the Tesco in Selby?" from fuel-lookup.
let main = ServiceMain(
    name: "station-prices",
    summary: "Example intent service: station prices by brand and town, with disambiguation.",
    options: [OptionSpec("--plugins", value: "URL",
                         help: "intent-router's plug-in endpoint [$FUELBOARD_PLUGINS, default tcp://127.0.0.1:5556]")],
    uses: ["--lookup"])
let plugins = main.arguments.value("--plugins") ?? ProcessInfo.processInfo.environment["FUELBOARD_PLUGINS"]
    ?? "tcp://127.0.0.1:5556"
main.finishConfigurationCheck(["plugins": plugins, "lookup": main.topology.lookup])
let service = IntentService(name: "station-prices", router: plugins,
                            intents: [StationPrices(lookup: main.topology.lookup, context: main.context).intent], logger: main.logger)
ShutdownSignals.install(shuttingDown: main.context, logger: main.logger)
do {
    try service.run(context: main.context)
    exit(ServiceMain.ExitCode.success)
} catch {
    main.logger.error("stopped", metadata: ["error": "\(error)"])
    exit(ServiceMain.ExitCode.failure)
}
