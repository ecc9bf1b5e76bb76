import Foundation

/// One run of a program to its end, with its own stdin (a file), stdout and stderr, so tests can
/// tell the two outputs apart and feed an interactive prompt.
public struct CommandRun: Sendable {
    public let status: Int32
    public let stdout: String
    public let stderr: String

    public var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }

    public struct Timeout: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs the `fuelboard` binary with `arguments`, without the FUELBOARD_* settings of the
    /// environment the tests run in.
    public static func fuelboard(_ arguments: [String], input: String = "",
                                 timeout: Duration = .seconds(30)) throws -> CommandRun {
        try CommandRun(executable: ServiceProcess.binaryDirectory.appendingPathComponent("fuelboard").path,
                       arguments, input: input, timeout: timeout)
    }

    /// Runs `executable` (a path) with `arguments`, `input` on its stdin; a run still going at
    /// `timeout` is ended with SIGTERM and throws.
    public init(executable: String, _ arguments: [String], input: String = "",
                timeout: Duration = .seconds(30)) throws {
        let files = FileManager.default
        let directory = files.temporaryDirectory.appendingPathComponent("command-run-\(UUID().uuidString)")
        try files.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? files.removeItem(at: directory) }
        let inputURL = directory.appendingPathComponent("stdin")
        let outputURL = directory.appendingPathComponent("stdout")
        let errorURL = directory.appendingPathComponent("stderr")
        try Data(input.utf8).write(to: inputURL)
        try Data().write(to: outputURL)
        try Data().write(to: errorURL)
        let stdin = try FileHandle(forReadingFrom: inputURL)
        let stdout = try FileHandle(forWritingTo: outputURL)
        let stderr = try FileHandle(forWritingTo: errorURL)

        let process = try ChildProcess(
            executable: executable, arguments: arguments,
            environment: ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("FUELBOARD_") },
            standardInput: stdin.fileDescriptor, standardOutput: stdout.fileDescriptor,
            standardError: stderr.fileDescriptor)
        guard let status = process.wait(timeout: timeout) else {
            process.signal(SIGTERM)
            process.waitUntilExit()
            throw Timeout(description: "\(executable) \(arguments) still running after \(timeout)")
        }
        self.status = status
        self.stdout = String(decoding: try Data(contentsOf: outputURL), as: UTF8.self)
        self.stderr = String(decoding: try Data(contentsOf: errorURL), as: UTF8.self)
    }
}
