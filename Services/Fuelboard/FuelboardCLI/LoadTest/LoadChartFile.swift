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
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        if files.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard !isDirectory.boolValue else { throw ConfigurationError("--svg: \(path) is a directory") }
            guard files.isWritableFile(atPath: path) else { throw ConfigurationError("--svg: cannot write \(path)") }
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard files.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ConfigurationError("--svg: no directory \(directory) to write \(path) in")
        }
        guard files.isWritableFile(atPath: directory) else {
            throw ConfigurationError("--svg: cannot write in \(directory)")
        }
    }

    /// Writes `svg` to `path` whole or not at all (a temporary file beside it, then renamed).
    static func write(_ svg: String, to path: String) throws(WriteError) {
        func failure() -> WriteError {
            WriteError(description: "cannot write chart to \(path): \(String(cString: strerror(errno)))")
        }
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw failure() }
        let bytes = Array(svg.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { buffer in
                buffer.baseAddress.map { writeSome(descriptor, $0, buffer.count) } ?? 0
            }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let problem = failure()
                close(descriptor)
                unlink(temporary)
                throw problem
            }
            written += count
        }
        guard close(descriptor) == 0, rename(temporary, path) == 0 else {
            let problem = failure()
            unlink(temporary)
            throw problem
        }
    }
}

/// `write(2)` (at file scope, where the name is not `LoadChart.write`).
private func writeSome(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
