import Foundation
import Messages
#if canImport(Glibc)
import Glibc
#endif

extension FeedFetcher {
    /// Reads a feed file through one descriptor: opened without waiting (a FIFO would wait for a
    /// writer), checked on that descriptor (a symlink is followed to what it names, as a
    /// Kubernetes ConfigMap's files are; a device, FIFO or directory is refused: /dev/zero would be
    /// read until memory ran out), and read up to the size limit.
    ///
    /// Under a `root`, what the descriptor opened is checked too: a symlink swapped in between the
    /// path's check and the open (a race a QA pass won 434 times in 8 s) is refused as any path
    /// outside is.
    func readRegularFile(atPath path: String, within root: FileFeedRoot? = nil) throws(Failure) -> Data {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let number = errno
            throw Failure(description: "cannot read \(path): \(Self.reason(number))",
                          code: number == ENOENT || number == ENOTDIR ? .notFound : .badRequest)
        }
        defer { close(descriptor) }
        if let root, let refusal = root.refusal(ofOpened: descriptor) {
            throw Failure(description: refusal, code: .badRequest)
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw Failure(description: "cannot read \(path): \(Self.reason(errno))", code: .badRequest)
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw Failure(description: "\(path.suffix(200)) is not a regular file", code: .badRequest)
        }
        guard status.st_size <= maxBytes else {
            throw Failure(description: "file is \(status.st_size) bytes, over the \(maxBytes)-byte limit", code: .tooLarge)
        }
        var data = Data(capacity: Int(status.st_size))
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return data }
            if count < 0 {
                if errno == EINTR { continue }
                throw Failure(description: "cannot read \(path): \(Self.reason(errno))", code: .badRequest)
            }
            data.append(contentsOf: buffer[..<count])
            // The file grew while being read.
            if data.count > maxBytes {
                throw Failure(description: "file is over the \(maxBytes)-byte limit", code: .tooLarge)
            }
        }
    }

    private static func reason(_ number: Int32) -> String { String(cString: strerror(number)) }
}
