import Foundation
import ServiceTesting
import TestSupport
import Testing

/// The tests' own way to start programs (Foundation's `Process.run()` crashed a test process
/// holding many descriptors): what a child inherits, its exit status, and waiting for it.
struct ChildProcessTests {
    /// 2,000 descriptors open without close-on-exec, as a busy test process has them: the child
    /// sees its three standard streams and the directory `ls` itself opened, nothing else.
    @Test func aChild_inheritsOnlyTheStandardStreams_fromAProcessHoldingThousandsOfDescriptors() throws {
        let held = (0..<2_000).map { _ in open("/dev/null", O_RDONLY) }
        defer { held.forEach { close($0) } }
        try #require(held.allSatisfy { $0 >= 0 })
        for _ in 0..<20 {
            let run = try CommandRun(executable: "/bin/ls", ["/proc/self/fd"])
            #expect(run.status == 0, "\(run.stderr)")
            let inherited = run.stdout.split(separator: "\n").compactMap { Int32($0) }
            #expect(inherited.count == 4 && inherited.allSatisfy { $0 <= 3 }, "\(inherited)")
        }
    }

    @Test func itsStatus_isTheExitCode_orTheSignalThatEndedIt() throws {
        #expect(try CommandRun(executable: "/bin/sh", ["-c", "exit 7"]).status == 7)
        #expect(try CommandRun(executable: "/bin/sh", ["-c", "kill -TERM $$"]).status == SIGTERM)
    }

    /// `cat` ends when its stdin does: it runs while the test holds the pipe's write end open.
    @Test func wait_givesNothingWhileItRuns_andTheStatusOnceItEnds() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let child = try ChildProcess(executable: "/bin/cat", arguments: [], environment: [:], standardInput: ends[0])
        #expect(child.wait(timeout: .milliseconds(100)) == nil)
        #expect(child.isRunning && child.terminationStatus == nil)
        close(ends[1])
        #expect(child.wait(timeout: .seconds(10)) == 0)
        #expect(!child.isRunning && child.terminationStatus == 0)
    }

    @Test func aMissingProgram_isAnErrorNamingIt() {
        #expect { try ChildProcess(executable: "/nonexistent/program", arguments: [], environment: [:]) } throws: {
            "\($0)".contains("cannot start /nonexistent/program: No such file or directory")
        }
    }

    /// Foundation's `Process` stays out of the Swift sources (code lines, not comments): one use
    /// in a test brings the crash back, once in a few runs.
    @Test func noSwiftSource_startsAProgramWithFoundationsProcess() throws {
        let root = SharedData.repositoryRoot
        let use = try NSRegularExpression(pattern: #"\bProcess(\(\)|\.run\()"#)
        var found: [String] = []
        for folder in ["Services", "Shared", "Tests"] {
            let files = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path)
            while let file = files?.nextObject() as? String {
                guard file.hasSuffix(".swift") else { continue }
                let path = root.appendingPathComponent(folder).appendingPathComponent(file).path
                let text = try String(contentsOfFile: path, encoding: .utf8)
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                    where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//")
                        && use.firstMatch(in: String(line), range: NSRange(line.startIndex..., in: line)) != nil {
                    found.append("\(folder)/\(file):\(number + 1)")
                }
            }
        }
        #expect(found.isEmpty, "use ChildProcess, CommandRun or ServiceProcess: \(found)")
    }

    /// A child started from a thread that blocks SIGTERM (as Dispatch's threads block signals)
    /// starts with nothing blocked: a service's SIGTERM handling does not depend on its parent.
    @Test func aChild_startsWithNoSignalsBlocked() throws {
        let result = Result<CommandRun, Error>.fromThread {
            var blocked = sigset_t()
            sigemptyset(&blocked)
            sigaddset(&blocked, SIGTERM)
            pthread_sigmask(SIG_BLOCK, &blocked, nil)
            return try CommandRun(executable: "/bin/grep", ["^SigBlk", "/proc/self/status"])
        }
        let run = try result.get()
        #expect(run.stdout == "SigBlk:\t0000000000000000\n", "\(run.stdout)")
    }
}

private extension Result where Failure == Error {
    /// Runs `body` on a new thread of its own and waits for its result.
    static func fromThread(_ body: @escaping @Sendable () throws -> Success) -> Result where Success: Sendable {
        let box = ResultBox<Success>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            box.result = Result { try body() }
            done.signal()
        }
        thread.start()
        done.wait()
        return box.result!
    }
}

private final class ResultBox<Value: Sendable>: @unchecked Sendable {
    var result: Result<Value, Error>?
}
