import Foundation
import ServiceTesting
import Testing
import ZeroMQ

/// `fuelboard` itself: what it says when the command line names no command it knows.
struct FuelboardCommandTests {
    /// One line, as CONTRACT.md asks of a configuration error (the whole usage came after it: 17 lines).
    @Test func fuelboard_whenGivenNoCommand_saysSoInOneLine() throws {
        let run = try FuelboardRun([])
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
        #expect(run.stderrLines == ["fuelboard: no command given (fuelboard COMMAND [options]; commands: ask, ingest, "
            + "lookup, health, stats, plugins, loadtest, generate; see --help)"])
    }

    @Test func fuelboard_whenFirstArgumentIsAnUnknownOption_namesItInOneLine() throws {
        let run = try FuelboardRun(["--bogus"])
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
        #expect(run.stderrLines.count == 1)
        #expect(run.stderrLines.first?.hasPrefix("fuelboard: expected a command first, got '--bogus' ") == true)
    }

    /// `-h` after a command is its `--help` (it was an unknown option, exit 64).
    @Test func aCommand_takesDashH_asHelp() throws {
        let run = try FuelboardRun(["loadtest", "-h"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("Usage: fuelboard loadtest"))
    }

    @Test func fuelboard_whenHelpAsked_printsUsageOnStdoutAndExits0() throws {
        let run = try FuelboardRun(["--help"])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("Usage: fuelboard COMMAND"))
        #expect(run.stderr.isEmpty)
    }
}

/// One run of the `fuelboard` binary with its own stdin (a file), stdout and stderr, so tests can
/// tell the two outputs apart and feed an interactive prompt.
struct FuelboardRun {
    let status: Int32
    let stdout: String
    let stderr: String

    var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }

    struct Timeout: Error, CustomStringConvertible {
        let description: String
    }

    init(_ arguments: [String], input: String = "", timeout: Duration = .seconds(30)) throws {
        let files = FileManager.default
        let directory = files.temporaryDirectory.appendingPathComponent("fuelboard-run-\(UUID().uuidString)")
        try files.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? files.removeItem(at: directory) }
        let inputURL = directory.appendingPathComponent("stdin")
        let outputURL = directory.appendingPathComponent("stdout")
        let errorURL = directory.appendingPathComponent("stderr")
        try Data(input.utf8).write(to: inputURL)
        try Data().write(to: outputURL)
        try Data().write(to: errorURL)

        let process = Process()
        process.executableURL = ServiceProcess.binaryDirectory.appendingPathComponent("fuelboard")
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("FUELBOARD_") }
        process.standardInput = try FileHandle(forReadingFrom: inputURL)
        process.standardOutput = try FileHandle(forWritingTo: outputURL)
        process.standardError = try FileHandle(forWritingTo: errorURL)
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        if exited.wait(timeout: .now() + seconds) == .timedOut {
            process.terminate()
            process.waitUntilExit()
            throw Timeout(description: "fuelboard \(arguments) still running after \(timeout)")
        }
        process.waitUntilExit()
        status = process.terminationStatus
        stdout = String(decoding: try Data(contentsOf: outputURL), as: UTF8.self)
        stderr = String(decoding: try Data(contentsOf: errorURL), as: UTF8.self)
    }
}
