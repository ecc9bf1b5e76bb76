import CSpawn
import Foundation
import Synchronization
import TestSupport

/// A real service binary run as a child process, for end-to-end tests.
///
/// Its stderr (the one-line logs) is captured; `waitForLog` blocks until a line matching a
/// predicate appears or a deadline passes (no sleeps). Endpoints come from the `listening` and
/// `publishing` log lines, so tests bind `tcp://127.0.0.1:*` and never pick ports.
public final class ServiceProcess: Sendable {
    public let name: String
    private let process: ChildProcess
    private let output = LogBuffer()
    private let changed = DispatchSemaphore(value: 0)

    /// Where the built binaries are: `FUELBOARD_BIN_DIR`, else beside the test bundle.
    public static var binaryDirectory: URL {
        if let override = ProcessInfo.processInfo.environment["FUELBOARD_BIN_DIR"] {
            return URL(fileURLWithPath: override, isDirectory: true)
        }
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.isExecutableFile(atPath: url.appendingPathComponent("price-ingest").path) {
                return url
            }
        }
        return SharedData.repositoryRoot.appendingPathComponent(".build/debug")
    }

    public struct LaunchError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts `binary` with `arguments`; the environment has no FUELBOARD_* settings unless given.
    /// `asUser` runs it as that uid (and gid) through `setpriv`, as a service account runs it
    /// (the caller must be root).
    public init(_ binary: String, _ arguments: [String], environment: [String: String] = [:],
                asUser uid: UInt32? = nil) throws {
        name = binary
        let path = Self.binaryDirectory.appendingPathComponent(binary).path
        let (executable, argv) = uid.map {
            ("/usr/bin/setpriv", ["--reuid=\($0)", "--regid=\($0)", "--clear-groups", path] + arguments)
        } ?? (path, arguments)
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("FUELBOARD_") }
        env.merge(environment) { _, new in new }
        var ends: [Int32] = [0, 0]
        guard pipe2(&ends, O_CLOEXEC) == 0 else {
            throw LaunchError(description: "cannot start \(binary): no pipe for its output (\(String(cString: strerror(errno))))")
        }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        do {
            process = try ChildProcess(executable: executable, arguments: argv, environment: env,
                                       standardOutput: writeEnd, standardError: writeEnd)
        } catch {
            close(readEnd)
            close(writeEnd)
            throw LaunchError(description: "cannot start \(binary) from \(Self.binaryDirectory.path): \(error)")
        }
        close(writeEnd)
        let output = output, changed = changed
        // A plain thread blocked in read() until end of file, not a Dispatch read source: one on a
        // pipe that closes under it can crash libdispatch's event loop.
        let thread = Thread { @Sendable in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                output.append(buffer[..<count])
                changed.signal()
            }
            close(readEnd)
            output.finish()
            changed.signal()
        }
        thread.name = "\(binary)-output"
        thread.start()
    }

    /// Everything the process wrote so far.
    public var log: String { output.text }

    public var isRunning: Bool { process.isRunning }
    public var pid: Int32 { process.pid }

    /// How much the process has written so far (UTF-8 bytes): pass it as `after:` to wait only
    /// for lines written later.
    public var logLength: Int { log.utf8.count }

    /// Waits until a log line satisfies `predicate`; returns it, or throws at the deadline.
    @discardableResult
    public func waitForLog(timeout: Duration = .seconds(10), after offset: Int = 0,
                           _ predicate: (String) -> Bool) throws -> String {
        let deadline = ContinuousClock.now + timeout
        func lines() -> [String] {
            let text = log
            let start = text.utf8.index(text.utf8.startIndex, offsetBy: min(offset, text.utf8.count))
            return text[start...].split(separator: "\n").map(String.init)
        }
        while true {
            if let line = lines().first(where: predicate) { return line }
            if !process.isRunning && output.isFinished && lines().allSatisfy({ !predicate($0) }) {
                throw LaunchError(description: "\(name) exited (status \(process.terminationStatus ?? -1)); log:\n\(log)")
            }
            let remaining = deadline - .now
            guard remaining > .zero else {
                throw LaunchError(description: "\(name): no matching log line within \(timeout); log:\n\(log)")
            }
            _ = changed.wait(timeout: .now() + .milliseconds(min(remaining, .milliseconds(200)).wholeMilliseconds))
        }
    }

    /// The endpoint from the first `<event> ... svc.endpoint=URL` log line.
    public func endpoint(event: String = "listening", timeout: Duration = .seconds(20)) throws -> String {
        let line = try waitForLog(timeout: timeout) { $0.contains(": \(event)") && $0.contains("svc.endpoint=") }
        guard let range = line.range(of: "svc.endpoint=") else { throw LaunchError(description: line) }
        return String(line[range.upperBound...].prefix { $0 != " " })
    }

    /// Sends SIGTERM and waits for the exit status.
    public func terminate(timeout: Duration = .seconds(10)) throws -> Int32 {
        process.signal(SIGTERM)
        return try waitForExit(timeout: timeout)
    }

    /// SIGKILL: no chance to clean up, as in a crash.
    public func kill() throws {
        process.signal(SIGKILL)
        _ = try waitForExit(timeout: .seconds(10))
    }

    /// Waits for the process to end by itself (e.g. a bad flag) and returns its status.
    public func waitForExit(timeout: Duration = .seconds(10)) throws -> Int32 {
        guard let status = process.wait(timeout: timeout) else {
            throw LaunchError(description: "\(name) still running after \(timeout)")
        }
        // The process has gone, but its last output may still be in the pipe: read it all first,
        // or a report printed just before exit would be missing from `log`.
        let drained = ContinuousClock.now + .seconds(5)
        while !output.isFinished && ContinuousClock.now < drained {
            _ = changed.wait(timeout: .now() + .milliseconds(50))
        }
        return status
    }
}

/// The captured output, appended from the pipe's reading thread; kept as bytes, so a character
/// split between two reads is whole in `text`.
private final class LogBuffer: Sendable {
    private let storage = Mutex([UInt8]())
    private let finished = Mutex(false)
    var text: String { storage.withLock { String(decoding: $0, as: UTF8.self) } }
    /// Whether the pipe has reached its end: everything the process wrote is in `text`.
    var isFinished: Bool { finished.withLock { $0 } }
    func append(_ chunk: ArraySlice<UInt8>) { storage.withLock { $0 += chunk } }
    func finish() { finished.withLock { $0 = true } }
}
