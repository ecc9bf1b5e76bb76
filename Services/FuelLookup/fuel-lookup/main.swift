import Foundation
import FuelLookup
import ServiceKit

// fuel-lookup: configure, start, serve until SIGTERM/SIGINT, exit 0.
let main = ServiceMain(
    name: "fuel-lookup",
    summary: """
        Answers lookup.cheapest, lookup.nearest and station.get from an in-memory spatial index of
        every station with a usable location. Subscribes to price-ingest's updates (--ingest-pub)
        and catches up from its snapshots (--ingest) by itself after a late start or a gap.
        """,
    options: [],
    uses: ["--ingest", "--ingest-pub", "--lookup"])

main.finishConfigurationCheck([
    "bind": main.bindEndpoint(default: main.topology.lookup),
    "ingest": main.topology.ingest,
    "ingest-pub": main.topology.ingestPub,
])
do {
    let service = try FuelLookupService(
        context: main.context, bind: main.bindEndpoint(default: main.topology.lookup),
        ingest: main.topology.ingest, ingestPub: main.topology.ingestPub, logger: main.logger)
    main.run(service.server)
} catch {
    main.logger.cannotStart(error)
    exit(ServiceMain.ExitCode.failure)
}
