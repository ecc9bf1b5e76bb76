import Foundation
import ServiceKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the chart goes: checked before a run (so a bad path costs no run) and written after it,
/// a failure said in one line.
extension LoadChart {
    /// A chart that cannot be written, with the system's reason.
    struct WriteError: Error, CustomStringConvertible {
        let description: String
    }

    /// Refuses a `--svg` path whose directory is missing or not writable, or that is a directory.
    static func checkWritable(_ path: String) throws(ConfigurationError) {
        guard !path.isEmpty else { throw ConfigurationError("--svg: expected a file name") }
        // The report is printed there: written over it (stdout sent to a file) or into it (a pipe),
        // both came out mangled.
        if isStandardOutput(path) {
            throw ConfigurationError("--svg: \(path) is the standard output, where the report goes: give the chart a file of its own")
        }
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        if files.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard !isDirectory.boolValue else { throw ConfigurationError("--svg: \(path) is a directory") }
            guard files.isWritableFile(atPath: path) else { throw ConfigurationError("--svg: cannot write \(path)") }
            // Written in place (a device, a pipe, a link): its directory need not be writable (/dev).
            if writesInPlace(path) { return }
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard files.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ConfigurationError("--svg: no directory \(directory) to write \(path) in")
        }
        guard files.isWritableFile(atPath: directory) else {
            throw ConfigurationError("--svg: cannot write in \(directory)")
        }
    }

    /// Whether `path` is this process's standard output (`/dev/stdout`, or the file it was sent to).
    static func isStandardOutput(_ path: String) -> Bool {
        var file = stat(), output = stat()
        return stat(path, &file) == 0 && fstat(STDOUT_FILENO, &output) == 0
            && file.st_dev == output.st_dev && file.st_ino == output.st_ino
    }

    /// Whether `path` is written into as it is rather than replaced: anything but a regular file
    /// (a device, a pipe), and a symbolic link (`/dev/stdout` to a file: renamed over, the link
    /// itself was replaced). `lstat`, so a link is seen as one.
    static func writesInPlace(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) != S_IFREG
    }

    /// Writes `svg` to `path` whole or not at all: a regular file (or a new one) through a temporary
    /// file beside it, then renamed; anything else that exists (`/dev/stdout`, a pipe, a link) is
    /// written into as it is. (Renamed over, `/dev/full` became a regular file holding the chart, and the
    /// write that should have failed with "no space" was reported done.)
    static func write(_ svg: String, to path: String) throws(WriteError) {
        func failure() -> WriteError {
            WriteError(description: "cannot write chart to \(path): \(String(cString: strerror(errno)))")
        }
        let isSpecial = writesInPlace(path)
        let target = isSpecial ? path : path + ".tmp-\(getpid())"
        let descriptor = isSpecial ? open(path, O_WRONLY | O_TRUNC) : open(target, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw failure() }
        func abandon() -> WriteError {
            let problem = failure()
            close(descriptor)
            if !isSpecial { unlink(target) }
            return problem
        }
        let bytes = Array(svg.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { buffer in
                buffer.baseAddress.map { writeSome(descriptor, $0, buffer.count) } ?? 0
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw abandon() }
            written += count
        }
        guard close(descriptor) == 0 else {
            let problem = failure()
            if !isSpecial { unlink(target) }
            throw problem
        }
        guard isSpecial || rename(target, path) == 0 else {
            let problem = failure()
            unlink(target)
            throw problem
        }
    }
}

/// `write(2)` (at file scope, where the name is not `LoadChart.write`).
private func writeSome(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
