import Foundation
import ServiceTesting
import Testing

/// `fuelboard health` said "All 1 service answer." of a fuel-lookup that answers every lookup
/// `unavailable` because it never got price-ingest's snapshot (operator QA). It now says that it
/// is not ready and why; `--ready` makes that a failure (a readiness check), plain `health` stays
/// a liveness check.
struct HealthReadinessTests {
    @Test func health_ofALookupWithoutASnapshot_saysNotReady_andFailsOnlyWithReady() throws {
        let lookup = try ServiceProcess("fuel-lookup", ["--ingest", try unservedEndpoint(),
                                                        "--ingest-pub", try unservedEndpoint(),
                                                        "--bind", "tcp://127.0.0.1:*"])
        let endpoint = try lookup.endpoint()
        let live = try CommandRun.fuelboard(["health", "--only", "lookup", "--lookup", endpoint])
        #expect(live.status == 0, "\(live.stdout)\(live.stderr)")
        #expect(live.stdout.contains("up, NOT READY"), "\(live.stdout)")
        #expect(live.stdout.contains("Not ready: fuel-lookup (waiting for price-ingest's first snapshot)."),
                "\(live.stdout)")

        let ready = try CommandRun.fuelboard(["health", "--only", "lookup", "--lookup", endpoint, "--ready"])
        #expect(ready.status == 69, "\(ready.stdout)")

        let json = try CommandRun.fuelboard(["health", "--only", "lookup", "--lookup", endpoint, "--json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(rows.first?["up"] as? Bool == true && rows.first?["ready"] as? Bool == false, "\(json.stdout)")
    }

    @Test func healthReady_ofALookupInStepWithPriceIngest_exits0() throws {
        let stack = try DataPathStack()
        let endpoint = try #require(stack.lookupEndpoint)
        let deadline = ContinuousClock.now + .seconds(20)
        var run = try CommandRun.fuelboard(["health", "--only", "lookup", "--lookup", endpoint, "--ready"])
        while run.status != 0 && ContinuousClock.now < deadline {  // until it has taken the snapshot
            run = try CommandRun.fuelboard(["health", "--only", "lookup", "--lookup", endpoint, "--ready"])
        }
        #expect(run.status == 0, "\(run.stdout)")
        #expect(run.stdout.hasSuffix("The service answers.\n"), "\(run.stdout)")
        #expect(!run.stdout.contains("NOT READY"), "\(run.stdout)")
    }

    /// Another service at an endpoint: health says which in its text (it was in --json only), and
    /// stats refuses to print its figures under this one's name (exit 0 before: operator QA).
    @Test func anotherServiceAtTheEndpoint_isSaid_byHealthAndStats() throws {
        let stack = try DataPathStack(startLookup: false)
        let health = try CommandRun.fuelboard(["health", "--only", "lookup", "--lookup", stack.ingestEndpoint])
        #expect(health.status == 69)
        #expect(health.stdout.contains("Down: fuel-lookup (answered as price-ingest)."), "\(health.stdout)")
        let stats = try CommandRun.fuelboard(["stats", "--only", "lookup", "--lookup", stack.ingestEndpoint])
        #expect(stats.status == 69)
        #expect(stats.stdout.contains("fuel-lookup: \(stack.ingestEndpoint) answered as price-ingest, not fuel-lookup"),
                "\(stats.stdout)")
        #expect(!stats.stdout.contains("requests"), "\(stats.stdout)")
    }

    /// dialog-renderer telling users to say another app name than the one intent-router hears is
    /// NOT READY (every "start with my name" led to a phrase the router refused: operator QA).
    @Test func appNamesThatDiffer_makeDialogRendererNotReady() throws {
        let dialog = try ServiceProcess("dialog-renderer", ["--bind", "tcp://127.0.0.1:*"])
        let router = try ServiceProcess("intent-router", ["--bind", "tcp://127.0.0.1:*", "--plugins", "tcp://127.0.0.1:*",
                                                          "--app-name", "Fuel Pal", "--lookup", try unservedEndpoint(),
                                                          "--location", try unservedEndpoint(),
                                                          "--dialog", try dialog.endpoint()])
        let run = try CommandRun.fuelboard(["health", "--only", "router,dialog", "--router", try router.endpoint(),
                                            "--dialog", try dialog.endpoint(), "--ready"])
        #expect(run.status == 69, "\(run.stdout)")
        #expect(run.stdout.contains("its texts say the app name 'FuelBoard' but intent-router hears 'Fuel Pal'"),
                "\(run.stdout)")
    }
}
