#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// An exclusive hold on a service's data directory for as long as the process runs (`flock` on
/// `<service>.lock` in it; the kernel lets go when the process ends, however it ends).
///
/// Two price-ingests on one directory both started and took turns writing one store, each
/// publishing versions the other had made, while its replicas stayed behind and said they were in
/// step (an outside chaos test). Now the second refuses to start, naming the first's process id.
public final class DataDirectoryLock {
    private let descriptor: Int32

    public struct Busy: Error, CustomStringConvertible {
        public let description: String
    }

    /// The lock file cannot be opened (one left by another user, root say): the data directory's
    /// fault, as a store that cannot be written is (exit 73).
    public struct Unusable: Error, CustomStringConvertible {
        public let description: String
    }

    /// Creates the directory when missing, then takes the lock.
    public init(directory: URL, service: String) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent("\(service).lock").path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            var status = stat()
            let owner = stat(path, &status) == 0 && status.st_uid != getuid()
                ? " (it belongs to uid \(status.st_uid), not this process's uid \(getuid()): chown it or remove it)" : ""
            throw Unusable(description: "cannot open \(path): \(reason)\(owner)")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = Self.readPID(descriptor)
            close(descriptor)
            throw Busy(description: "the data directory \(directory.path) is in use by another \(service)"
                + (holder.map { " (pid \($0))" } ?? "") + "; one process per data directory")
        }
        let pid = "\(getpid())\n"
        _ = ftruncate(descriptor, 0)
        _ = pid.withCString { pwrite(descriptor, $0, strlen($0), 0) }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Who holds `directory`'s lock now, without taking it for longer than a test: "pid N" (or
    /// "a process" when it wrote none), nil when nobody does (or there is no lock file yet).
    public static func holder(directory: URL, service: String) -> String? {
        let path = directory.appendingPathComponent("\(service).lock").path
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        // Shared and at once: a start that comes meanwhile finds it free again a moment later.
        if flock(descriptor, LOCK_SH | LOCK_NB) == 0 {
            flock(descriptor, LOCK_UN)
            return nil
        }
        return readPID(descriptor).map { "pid \($0)" } ?? "a process"
    }

    private static func readPID(_ descriptor: Int32) -> Int? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 31, 0) }
        guard count > 0 else { return nil }
        return Int(String(decoding: buffer[0..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
