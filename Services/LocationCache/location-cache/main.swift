import Foundation
import LocationCache
import ServiceKit
import SQLite

// location-cache: configure, start, serve until SIGTERM/SIGINT, exit 0.
let main = ServiceMain(
    name: LocationCacheService.name,
    summary: """
        Holds each user's last-known location (location.put / location.get / location.forget) with its
        time, returns it only until it expires after --ttl, and erases expired and forgotten rows from
        disk (SQLite with secure_delete, WAL truncated). Also holds each user's preferences
        (preferences.get / preferences.set: search radius 1-50 miles, distance unit miles or km).
        Stored in <data-dir>/location-cache.sqlite. Coordinates never appear in log lines.
        """,
    options: [
        OptionSpec("--ttl", value: "DURATION", help: "how long a location lives after its time (default 24h)"),
        OptionSpec("--purge-interval", value: "DURATION",
                   help: "how often expired locations are erased from disk (default 1m)"),
    ],
    uses: ["--location", "--data-dir"])

var configuration = LocationCacheConfiguration(
    endpoint: main.bindEndpoint(default: main.topology.location),
    dataDirectory: main.ensureDataDirectory())
configuration.ttl = main.durationOption("--ttl", default: configuration.ttl)
configuration.purgeInterval = main.durationOption("--purge-interval", default: configuration.purgeInterval)
main.finishConfigurationCheck([
    "bind": configuration.endpoint,
    "data-dir": configuration.dataDirectory.path,
    "store": configuration.dataDirectory.appendingPathComponent(LocationStore.fileName).path,
    "ttl": ServiceMain.secondsText(configuration.ttl),
    "purge-interval": ServiceMain.secondsText(configuration.purgeInterval),
])

do {
    let service = try LocationCacheService(context: main.context, configuration: configuration, logger: main.logger)
    main.run(service.server)
} catch {
    main.logger.cannotStart(error)
    // A store it can read but not write (put back as another user) is the data directory's fault: 73.
    let dataDirectoryFault = (error as? SQLiteError)?.isReadOnly == true || error is DataDirectoryLock.Unusable
    // A damaged store stays damaged: 65, which the systemd units do not restart on.
    exit(error is DamagedDatabase ? ServiceMain.ExitCode.dataError
        : dataDirectoryFault ? ServiceMain.ExitCode.cannotCreate : ServiceMain.ExitCode.failure)
}
