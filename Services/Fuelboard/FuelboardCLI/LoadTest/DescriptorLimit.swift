#if canImport(Glibc)
import Glibc
#endif

/// Open files for a load over many connections: each connection holds four descriptors (its TCP
/// connection, and the eventfd mailboxes of its socket and of the two sockets of its monitor).
/// Checked before the run, raising the soft limit to the hard one where that is needed, so a run
/// never fails part-way with "Too many open files".
enum DescriptorLimit {
    /// Descriptors a load over `connections` connections needs, with room for the rest of the process.
    static func needed(connections: Int) -> Int { connections * 4 + 64 }

    /// ZeroMQ sockets a load over `connections` connections makes: each, and its monitor's two.
    static func sockets(connections: Int) -> Int { connections * 3 + 64 }

    private static let openFiles = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)

    /// Nil when this process may open `needed` descriptors (after raising its soft limit if it
    /// had to); else why not, for the person running it.
    static func ensure(_ needed: Int) -> String? {
        var limit = rlimit()
        guard getrlimit(Self.openFiles, &limit) == 0 else { return nil }  // unknown: let the run say
        if limit.rlim_cur >= rlim_t(needed) { return nil }
        if limit.rlim_max >= rlim_t(needed) {
            var raised = limit
            raised.rlim_cur = rlim_t(needed)
            if setrlimit(Self.openFiles, &raised) == 0 { return nil }
        }
        return "these connections need \(needed) open files (four each), and this process may open at most "
            + "\(limit.rlim_max) (ulimit -Hn): use fewer --connections, or raise the limit"
    }
}
