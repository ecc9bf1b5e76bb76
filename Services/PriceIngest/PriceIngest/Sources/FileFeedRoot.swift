import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The one directory `file://` feeds may be read from (`--file-root`). The bus has no
/// authentication, and without a root any client could ask price-ingest to read any path its
/// user can: the file's content never leaves it (a non-feed is "not valid JSON"), but "no such
/// file" against "not valid JSON" told what exists. Under a root, a path outside it is refused
/// before it is opened, with one sentence whether it exists or not. Symlinks are followed (a
/// Kubernetes ConfigMap's files are symlinks within its own directory) and must stay inside.
public struct FileFeedRoot: Sendable, Equatable {
    /// The directory, absolute and with its own symlinks resolved.
    public let path: String

    /// The root at `directory`, which must exist and be a directory.
    public init(directory: String) throws(FileFeedRootError) {
        guard let resolved = Self.resolved(directory) else {
            throw FileFeedRootError("'\(directory)': \(String(cString: strerror(errno)))")
        }
        path = resolved
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw FileFeedRootError("'\(directory)' is not a directory")
        }
    }

    /// Why the file at absolute `filePath` may not be read, or nil when it lies under the root.
    /// Judged by what the path names, symlinks and `..` resolved as the kernel would; a file that
    /// does not exist by its directory (so that it is then simply not found), and a path whose
    /// directory does not exist either by its words.
    public func refusal(of filePath: String) -> String? {
        let place = Self.resolved(filePath)
            ?? Self.resolved((filePath as NSString).deletingLastPathComponent)
            ?? URL(fileURLWithPath: filePath).standardizedFileURL.path
        return contains(place) ? nil : refusal
    }

    /// The one refusal, whatever the path and whether it exists.
    private var refusal: String { "file:// feeds are read only under \(path) here (--file-root)" }

    /// Why the file open on `descriptor` may not be read, or nil when it lies under the root: the
    /// file itself, as the kernel names it (`/proc/self/fd`), whatever path led to it.
    public func refusal(ofOpened descriptor: Int32) -> String? {
        guard let opened = Self.resolved("/proc/self/fd/\(descriptor)") else {
            return refusal + "; the file opened cannot be named"
        }
        return contains(opened) ? nil : refusal
    }

    private static func resolved(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private func contains(_ candidate: String) -> Bool {
        path == "/" || candidate == path || candidate.hasPrefix(path + "/")
    }
}

/// A `--file-root` that cannot be used.
public struct FileFeedRootError: Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
