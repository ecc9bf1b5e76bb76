import Foundation
import ServiceKit
import Testing

/// A thread that names itself as it starts keeps the name where operators look.
struct ThreadNamingTests {
    /// The names of this process's threads, as the kernel has them.
    private static func kernelNames() -> Set<String> {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return Set(tasks.compactMap { task in
            (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
        })
    }

    /// Many threads naming themselves at once: with `Thread.current.name` alone, one that runs
    /// before `start()` has recorded its handle stays unnamed (seen 1 in 40 here).
    @Test func threadsNamingThemselvesAsTheyStart_allCarryTheirNames() {
        let count = 100
        let named = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        for index in 0..<count {
            Thread {
                Thread.nameCurrent("named-\(index)")
                named.signal()
                release.wait()
            }.start()
        }
        for _ in 0..<count { named.wait() }
        let names = Self.kernelNames()
        let missing = (0..<count).filter { !names.contains("named-\($0)") }
        for _ in 0..<count { release.signal() }
        #expect(missing.isEmpty, "unnamed: \(missing)")
    }

    @Test func aLongName_isCutToTheKernelsFifteenBytes() {
        let done = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        Thread {
            Thread.nameCurrent("a-name-longer-than-fifteen")
            done.signal()
            release.wait()
        }.start()
        done.wait()
        let names = Self.kernelNames()
        release.signal()
        #expect(names.contains("a-name-longer-t"))
    }
}
