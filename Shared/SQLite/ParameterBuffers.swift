internal import CSQLite

/// The bytes of a statement's bound text and blobs, owned by the statement so SQLite can bind
/// them without making its own copy (`SQLITE_STATIC`): one reusable buffer per parameter.
///
/// SQLite reads a static binding's bytes at every step until that parameter is bound again, the
/// bindings are cleared or the statement is finalized. So a buffer is never freed while it may
/// still be bound: a bigger one replaces it only after the new binding took, and all of them go
/// only after the statement was finalized (`Statement` releases them in `finalize()` and deinit,
/// after `sqlite3_finalize`). Rewriting a buffer in place is the caller's promise that the
/// statement is not between a step and its reset (SQLite refuses binds then, and would read the
/// old value again at the next step).
struct ParameterBuffers: ~Copyable {
    /// Values longer than this are left to SQLite to copy, so one large value does not stay
    /// allocated for the statement's life.
    static let largestOwnedValue = 1024

    /// The smallest buffer allocated (ids, codes and names fit without growing).
    private static let smallestBuffer = 32

    private struct Buffer {
        var bytes: UnsafeMutableRawPointer?
        var capacity: Int
    }

    /// One buffer per parameter, parameter 1 first.
    private let buffers: UnsafeMutableBufferPointer<Buffer>

    init(parameterCount: Int) {
        buffers = .allocate(capacity: max(parameterCount, 0))
        buffers.initialize(repeating: Buffer(bytes: nil, capacity: 0))
    }

    deinit {
        releaseAll()
        buffers.deallocate()
    }

    /// True when a value of `count` bytes is bound from a buffer of this type.
    static func owns(byteCount count: Int) -> Bool {
        count <= largestOwnedValue
    }

    /// Copies `value` into the buffer of parameter `position` (1-based, in range) and calls
    /// `bind` with the copy's address, returning its result code. The copy's address is never
    /// null, even for an empty value (so empty text stays `''`, not NULL).
    func bind(_ value: UnsafeRawBufferPointer, position: Int, _ bind: (UnsafeRawPointer) -> Int32) -> Int32 {
        let slot = position - 1
        precondition(slot >= 0 && slot < buffers.count && Self.owns(byteCount: value.count))
        let current = buffers[slot]
        if let bytes = current.bytes, value.count <= current.capacity {
            copy(value, to: bytes)
            return bind(UnsafeRawPointer(bytes))
        }
        // A new, bigger buffer: the old one may be bound until `bind` replaces it.
        let capacity = Self.capacity(for: value.count)
        let bytes = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 1)
        copy(value, to: bytes)
        let result = bind(UnsafeRawPointer(bytes))
        guard result == SQLITE_OK else {
            // SQLite refused it: the old buffer may still be bound, the new one is not.
            bytes.deallocate()
            return result
        }
        current.bytes?.deallocate()
        buffers[slot] = Buffer(bytes: bytes, capacity: capacity)
        return result
    }

    /// Frees every buffer. Only once the statement is finalized (nothing can read them then).
    func releaseAll() {
        for slot in buffers.indices {
            buffers[slot].bytes?.deallocate()
            buffers[slot] = Buffer(bytes: nil, capacity: 0)
        }
    }

    private func copy(_ value: UnsafeRawBufferPointer, to bytes: UnsafeMutableRawPointer) {
        guard let source = value.baseAddress, !value.isEmpty else { return }
        bytes.copyMemory(from: source, byteCount: value.count)
    }

    /// A power of two from `smallestBuffer` up, holding `count` bytes.
    private static func capacity(for count: Int) -> Int {
        var capacity = smallestBuffer
        while capacity < count { capacity *= 2 }
        return capacity
    }
}
