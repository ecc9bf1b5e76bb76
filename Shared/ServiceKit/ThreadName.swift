import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension Thread {
    /// Names the calling thread where operators look (`top -H`, `ps -L`, `/proc/<pid>/task/*/comm`;
    /// the kernel keeps 15 bytes).
    ///
    /// Setting `Thread.current.name` alone is not enough on Linux: Foundation names the OS thread
    /// only once it knows the thread's handle, which `start()` records after the thread is
    /// created, so a new thread that names itself straight away can race it and stay unnamed.
    /// The name is written to the kernel's own record of the calling thread instead.
    public static func nameCurrent(_ name: String) {
        Thread.current.name = name
        #if canImport(Glibc)
        let bytes = Array(name.utf8.prefix(15))
        let file = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard file >= 0 else { return }
        _ = bytes.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
        close(file)
        #endif
    }
}
