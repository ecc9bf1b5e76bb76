import Foundation

/// Whether a directory can really take a new entry, found by making one and removing it: the
/// permission bits say "yes" as root on `/proc` or `/sys`, where every `mkdir` fails.
enum WriteProbe: Equatable {
    case writable
    /// This user, not root, may not (`EACCES`, `EPERM`): another, the one the service runs as, may.
    case denied
    /// No user can (`/proc`, a read-only mount, a full disk...): why, as `strerror` says it.
    case impossible(String)

    /// Makes and removes an empty directory in `directory` (a hidden, unique name).
    static func probe(_ directory: String) -> WriteProbe {
        var template = Array((directory + "/.fuelboard-write-check-XXXXXX").utf8CString)
        let failure: Int32? = template.withUnsafeMutableBufferPointer { buffer in
            guard let made = mkdtemp(buffer.baseAddress!) else { return errno }
            rmdir(made)
            return nil
        }
        guard let failure else { return .writable }
        if failure == EACCES || failure == EPERM, geteuid() != 0 { return .denied }
        return .impossible(String(cString: strerror(failure)))
    }
}
