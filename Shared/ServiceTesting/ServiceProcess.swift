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
    private let process: Process
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
        process = Process()
        let path = Self.binaryDirectory.appendingPathComponent(binary)
        if let uid {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", path.path] + arguments
        } else {
            process.executableURL = path
            process.arguments = arguments
        }
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("FUELBOARD_") }
        env.merge(environment) { _, new in new }
        process.environment = env
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = pipe
        let output = output, changed = changed
        let reader = pipe.fileHandleForReading
        // A plain thread blocked in read() until end of file, not a `readabilityHandler`: a
        // Dispatch read source on a pipe that closes under it can crash libdispatch's event loop.
        let thread = Thread { @Sendable in
            while true {
                let data = reader.availableData
                if data.isEmpty { break }
                output.append(String(decoding: data, as: UTF8.self))
                changed.signal()
            }
            output.finish()
            changed.signal()
        }
        thread.name = "\(binary)-output"
        do {
            try process.run()
        } catch {
            throw LaunchError(description: "cannot start \(binary) from \(Self.binaryDirectory.path): \(error)")
        }
        thread.start()
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    /// Everything the process wrote so far.
    public var log: String { output.text }

    public var isRunning: Bool { process.isRunning }
    public var pid: Int32 { process.processIdentifier }

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
            if !process.isRunning && lines().allSatisfy({ !predicate($0) }) {
                throw LaunchError(description: "\(name) exited (status \(process.terminationStatus)); log:\n\(log)")
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
        process.terminate()
        return try waitForExit(timeout: timeout)
    }

    /// SIGKILL: no chance to clean up, as in a crash.
    public func kill() throws {
        Foundation.kill(process.processIdentifier, SIGKILL)
        _ = try waitForExit(timeout: .seconds(10))
    }

    /// Waits for the process to end by itself (e.g. a bad flag) and returns its status.
    public func waitForExit(timeout: Duration = .seconds(10)) throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            guard ContinuousClock.now < deadline else {
                throw LaunchError(description: "\(name) still running after \(timeout)")
            }
            _ = changed.wait(timeout: .now() + .milliseconds(50))
        }
        process.waitUntilExit()
        // The process has gone, but its last output may still be in the pipe: read it all first,
        // or a report printed just before exit would be missing from `log`.
        let drained = ContinuousClock.now + .seconds(5)
        while !output.isFinished && ContinuousClock.now < drained {
            _ = changed.wait(timeout: .now() + .milliseconds(50))
        }
        return process.terminationStatus
    }
}

/// The captured output, appended from the pipe's handler thread.
private final class LogBuffer: Sendable {
    private let storage = Mutex("")
    private let finished = Mutex(false)
    var text: String { storage.withLock { $0 } }
    /// Whether the pipe has reached its end: everything the process wrote is in `text`.
    var isFinished: Bool { finished.withLock { $0 } }
    func append(_ chunk: String) { storage.withLock { $0 += chunk } }
    func finish() { finished.withLock { $0 = true } }
}
