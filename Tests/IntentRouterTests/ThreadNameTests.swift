import Foundation
import Testing

/// Threads the services start carry their own names where operators look (`top -H`, `ps -L`),
/// not the process's.
@Suite(.serialized)
struct ThreadNameTests {
    /// The names of this process's threads, as the kernel has them.
    private static func threadNames() -> Set<String> {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return Set(tasks.compactMap { task in
            (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
        })
    }

    @Test func theRoutersPluginRelay_andAnIntentService_nameTheirThreads() throws {
        let harness = try PluginHarness()  // returns once the relay's thread is serving
        defer { harness.stop() }
        #expect(Self.threadNames().contains("plugin-relay"))
        try harness.start("fuel-facts", [TestIntents.fuelFact()], instance: "i-1")  // waits for registration
        #expect(Self.threadNames().contains("fuel-facts"))
    }
}
