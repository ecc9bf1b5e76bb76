import Foundation
import Messages
import PriceIngest
import ServiceKit
import SQLite

// price-ingest: configure, start, serve until SIGTERM/SIGINT, exit 0.
let main = ServiceMain(
    name: "price-ingest",
    summary: """
        Takes UK retailers' CMA open-data fuel price feeds (ingest.feed with an inline feed or a URL,
        or a polled feeds list), validates and normalises them, stores them in SQLite under the data
        directory, and publishes every accepted change with a version on the --ingest-pub endpoint.
        An ingest.feed replaces the retailer's stations even with a feed older than the stored one (the
        reply warns older_feed); a polled copy older than the stored feed changes nothing (recorded in
        ingest.status). ingest.remove takes a retailer out of the store and every replica.
        """,
    options: [
        OptionSpec("--feeds", value: "FILE", help: "feeds to poll: one 'RETAILER URL' per line"),
        OptionSpec("--poll-interval", value: "DURATION", help: "how often to poll the feeds list (default 30m, at least 10s)"),
        OptionSpec("--bind-pub", value: "URL", help: "bind the publisher here instead of --ingest-pub"),
        OptionSpec("--fetch-timeout", value: "DURATION", help: "timeout of one feed fetch attempt (default 20s)"),
        OptionSpec("--file-root", value: "DIR", help: "read file:// feeds only under DIR, symlinks resolved (default: any file this user can read)"),
    ],
    uses: ["--ingest", "--ingest-pub", "--data-dir"])

var configuration = PriceIngestConfiguration(
    endpoint: main.bindEndpoint(default: main.topology.ingest),
    publishEndpoint: main.bindEndpoint("--bind-pub", default: main.topology.ingestPub),
    dataDirectory: main.ensureDataDirectory())
do {
    try Endpoint.validateDistinct(("--bind", configuration.endpoint), ("--bind-pub", configuration.publishEndpoint))
} catch {
    ServiceMain.usageFailure(name: main.name, error)
}
configuration.pollInterval = main.durationOption("--poll-interval", default: configuration.pollInterval,
                                                  atLeast: PriceIngestConfiguration.shortestPollInterval)
configuration.fetcher.timeout = main.durationOption("--fetch-timeout", default: configuration.fetcher.timeout)
if let directory = main.arguments.value("--file-root") {
    do {
        configuration.fetcher.fileRoot = try FileFeedRoot(directory: directory)
    } catch {
        ServiceMain.usageFailure(name: main.name, ConfigurationError("--file-root: \(error)"))
    }
}
if let path = main.arguments.value("--feeds") {
    do {
        configuration.feeds = try FeedList(contentsOf: URL(fileURLWithPath: path))
    } catch {
        let reason = error is CocoaError || error is POSIXError ? FileErrorText.describe(error, path: path) : "\(error)"
        ServiceMain.usageFailure(name: main.name, ConfigurationError("--feeds: \(reason)"))
    }
    // A polled file outside --file-root would fail at every poll: said now.
    for entry in configuration.feeds.entries {
        guard let url = URL(string: entry.url), url.scheme?.lowercased() == "file",
              let refusal = configuration.fetcher.fileRoot?.refusal(of: url.path) else { continue }
        ServiceMain.usageFailure(name: main.name, ConfigurationError("--feeds: \(entry.retailer): \(refusal)"))
    }
    if configuration.feeds.entries.isEmpty {
        main.logger.warning("feeds list is empty: nothing will be polled", metadata: ["path": path])
    }
}
main.finishConfigurationCheck([
    "bind": configuration.endpoint,
    "bind-pub": configuration.publishEndpoint,
    "data-dir": configuration.dataDirectory.path,
    "store": configuration.dataDirectory.appendingPathComponent(StationStore.fileName).path,
    "feeds": "\(configuration.feeds.entries.count)",
    "poll-interval": ServiceMain.secondsText(configuration.pollInterval),
    "fetch-timeout": ServiceMain.secondsText(configuration.fetcher.timeout),
    "file-root": configuration.fetcher.fileRoot?.path ?? "(any file this user can read)",
])

do {
    let service = try PriceIngestService(context: main.context, configuration: configuration, logger: main.logger)
    main.logger.info("publishing", metadata: ["svc.endpoint": service.publishEndpoint])
    main.run(service.server)
} catch {
    main.logger.cannotStart(error)
    // A store it can read but not write (put back as another user) is the data directory's fault: 73.
    let dataDirectoryFault = (error as? SQLiteError)?.isReadOnly == true || error is DataDirectoryLock.Unusable
    // A damaged store stays damaged: 65, which the systemd units do not restart on.
    exit(error is DamagedDatabase ? ServiceMain.ExitCode.dataError
        : dataDirectoryFault ? ServiceMain.ExitCode.cannotCreate : ServiceMain.ExitCode.failure)
}
