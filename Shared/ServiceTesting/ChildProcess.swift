import CSpawn
import Foundation
import Synchronization

/// A program run as a child process through `posix_spawn`, for tests.
///
/// Not Foundation's `Process`: on Linux (Swift 6.3) `Process.run()` finds the descriptors to
/// close in the child by reading `/proc/self/fd` and copies 256 bytes out of each directory entry,
/// past the end of glibc's buffer when the last entry fills it. A test process holding some 1,300
/// descriptors (its ZeroMQ sockets) crashed there (SIGSEGV in `Process.run`, swift-corelibs-foundation
/// pull request 5472). Here the child closes every descriptor above 2 itself
/// (`posix_spawn_file_actions_addclosefrom_np`), starts with default signal handling and no blocked
/// signals, and a thread of its own reaps it with a blocking `waitpid`.
public final class ChildProcess: Sendable {
    public let pid: pid_t
    private let exit = ExitState()

    public struct SpawnError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts `executable` (a path) with `arguments` and exactly `environment`. Each standard
    /// stream is the descriptor given, or /dev/null when nil; the caller keeps (and closes) its own.
    public init(executable: String, arguments: [String], environment: [String: String],
                standardInput: Int32? = nil, standardOutput: Int32? = nil, standardError: Int32? = nil) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, source) in [(STDIN_FILENO, standardInput), (STDOUT_FILENO, standardOutput),
                                 (STDERR_FILENO, standardError)] {
            if let source {
                posix_spawn_file_actions_adddup2(&actions, source, target)
            } else {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null",
                                                 target == STDIN_FILENO ? O_RDONLY : O_WRONLY, 0)
            }
        }
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        // Its own process group, as `Process` did: a Ctrl-C at the test's terminal is the test's.
        posix_spawnattr_setflags(&attributes,
                                 Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child = pid_t()
        let failure = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard failure == 0 else {
            throw SpawnError(description: "cannot start \(executable): \(String(cString: strerror(failure)))")
        }
        pid = child

        let exit = exit, spawned = child
        let reaper = Thread { @Sendable in
            var status: Int32 = 0
            while waitpid(spawned, &status, 0) == -1 && errno == EINTR {}
            exit.record(status)
        }
        reaper.name = "reap-\(spawned)"
        reaper.start()
    }

    deinit {
        if isRunning { kill(pid, SIGTERM) }
    }

    public var isRunning: Bool { exit.status == nil }

    /// Its exit status, or the number of the signal that ended it; nil while it runs.
    public var terminationStatus: Int32? { exit.status }

    public func signal(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    /// Waits up to `timeout` for it to end; its `terminationStatus`, or nil if it still runs.
    @discardableResult
    public func wait(timeout: Duration) -> Int32? {
        let nanoseconds = max(0, timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000)
        _ = exit.ended.wait(timeout: .now() + .nanoseconds(Int(nanoseconds)))
        return exit.status
    }

    /// Waits for it to end, however long that takes.
    @discardableResult
    public func waitUntilExit() -> Int32 {
        exit.ended.wait()
        return exit.status ?? -1
    }
}

/// How a child ended, once its reaper has seen it.
private final class ExitState: Sendable {
    private let stored = Mutex<Int32?>(nil)
    /// Entered until the child is reaped: any number of waiters can wait on it.
    let ended = DispatchGroup()

    init() { ended.enter() }

    var status: Int32? { stored.withLock { $0 } }

    func record(_ waitStatus: Int32) {
        let signal = waitStatus & 0x7f
        stored.withLock { $0 = signal == 0 ? (waitStatus >> 8) & 0xff : signal }
        ended.leave()
    }
}
