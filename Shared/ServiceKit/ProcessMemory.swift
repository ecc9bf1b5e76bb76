import CMalloc
import Foundation
import Messages

/// The process's memory as operators see it (resident and peak resident set from `/proc`) and
/// as the C allocator sees it (glibc's `mallinfo2`), and a way to hand freed heap pages back to
/// the system (`malloc_trim`).
public enum ProcessMemory {
    /// Resident and peak resident bytes (`VmRSS`, `VmHWM`), nil when `/proc` is unreadable.
    public static func residentBytes() -> (current: Int, peak: Int)? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        var current: Int?, peak: Int?
        for line in status.split(separator: "\n") {
            if line.hasPrefix("VmRSS:") { current = kilobytes(line) }
            if line.hasPrefix("VmHWM:") { peak = kilobytes(line) }
        }
        guard let current, let peak else { return nil }
        return (current * 1024, peak * 1024)
    }

    private static func kilobytes(_ line: Substring) -> Int? {
        line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) }
    }

    /// Bytes the allocator has handed out and not had back (small and large allocations).
    public static func heapInUseBytes() -> Int {
        let info = mallinfo2()
        return Int(info.uordblks) + Int(info.hblkhd)
    }

    /// Returns free heap pages to the system (after a large structure was replaced, say).
    public static func trimHeap() {
        _ = malloc_trim(0)
    }

    /// The figures for `sys.stats`.
    public static var statsDetails: [String: JSONValue] {
        var details: [String: JSONValue] = ["heapInUseBytes": .number(Double(heapInUseBytes()))]
        if let resident = residentBytes() {
            details["rssBytes"] = .number(Double(resident.current))
            details["peakRssBytes"] = .number(Double(resident.peak))
        }
        return details
    }
}
