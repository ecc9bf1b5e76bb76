#if canImport(Glibc)
import Glibc
#endif

/// Session ids: 128 random bits as 32 hex digits. The bits come from the kernel's generator
/// (`arc4random_buf`) 4 KiB at a time: one call per 256 ids, where the system generator made two
/// per id, on a path that opens a session for every station search. Not thread-safe: one per
/// store, used on the router's loop.
final class SessionIDs {
    private var pool = [UInt8](repeating: 0, count: 4096)
    private var used = 4096

    func next() -> String {
        if used + 16 > pool.count { refill() }
        let id = String(unsafeUninitializedCapacity: 32) { out in
            for index in 0 ..< 16 {
                let byte = pool[used + index]
                out[index * 2] = Self.hexDigit(byte >> 4)
                out[index * 2 + 1] = Self.hexDigit(byte & 0x0F)
            }
            return 32
        }
        used += 16
        return id
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    private func refill() {
        pool.withUnsafeMutableBytes { buffer in arc4random_buf(buffer.baseAddress!, buffer.count) }
        used = 0
    }
}
