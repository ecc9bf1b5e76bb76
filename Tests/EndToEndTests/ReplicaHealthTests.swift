import Foundation
import Messages
import ServiceKit
import ServiceTesting
import Testing

/// With several replicas of a service in the topology, `health` and `stats` ask each one: a dead
/// replica is not hidden behind one that answers.
struct ReplicaHealthTests {
    @Test func health_withTwoLookupReplicas_oneDead_reportsItAndExits69() throws {
        let stack = try DataPathStack()
        let live = try #require(stack.lookupEndpoint)
        let dead = try unservedEndpoint()
        let run = try CommandRun.fuelboard(["health", "--only", "lookup", "--lookup", "\(live),\(dead)", "--timeout", "300ms"])
        #expect(run.status == 69)
        let rows = run.stdout.split(separator: "\n").filter { $0.hasPrefix("fuel-lookup") }
        #expect(rows.count == 2, "\(run.stdout)")
        #expect(rows.contains { $0.contains(live) && $0.contains(" up ") }, "\(run.stdout)")
        #expect(rows.contains { $0.contains(dead) && $0.contains("DOWN") }, "\(run.stdout)")
        #expect(run.stdout.contains("Down: fuel-lookup@\(dead)."), "\(run.stdout)")
    }

    @Test func stats_withTwoLookupReplicas_filesEachUnderItsEndpoint() throws {
        let stack = try DataPathStack()
        let live = try #require(stack.lookupEndpoint)
        let dead = try unservedEndpoint()
        let text = try CommandRun.fuelboard(["stats", "--only", "lookup", "--lookup", "\(live),\(dead)", "--timeout", "300ms"])
        #expect(text.status == 69)
        #expect(text.stdout.contains("fuel-lookup@\(live): "), "\(text.stdout)")
        #expect(text.stdout.contains("fuel-lookup@\(dead): unreachable at \(dead)"), "\(text.stdout)")

        let metrics = try CommandRun.fuelboard(["stats", "--prometheus", "--only", "lookup", "--lookup", "\(live),\(dead)",
                                        "--timeout", "300ms"])
        #expect(metrics.stdout.contains(#"fuelboard_up{service="fuel-lookup",endpoint="\#(live)"} 1"#), "\(metrics.stdout)")
        #expect(metrics.stdout.contains(#"fuelboard_up{service="fuel-lookup",endpoint="\#(dead)"} 0"#), "\(metrics.stdout)")
    }
}
