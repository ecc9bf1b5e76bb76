/// A strict RFC 8259 syntax check, run on every request frame before it is decoded.
///
/// Foundation's decoders are lenient in places (trailing commas, values skipped without being
/// validated), so a frame like `{"type":"sys.ping","body":{},}` would otherwise be answered as
/// if it were JSON. This scanner accepts exactly the JSON grammar: one value, surrounded only by
/// whitespace, UTF-8 text, escapes and numbers as the RFC writes them, nesting at most
/// `maxDepth` deep. It allocates nothing but a small stack and makes one pass over the bytes.
public enum StrictJSON {
    public static let maxDepth = 512

    /// Why a document is not JSON, with the byte offset where the scan stopped.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public let offset: Int
        public let reason: String
        public var description: String { "\(reason) at byte \(offset)" }
    }

    /// Returns nil when `bytes` is one valid JSON document, else why not.
    public static func check<Bytes: Collection>(_ bytes: Bytes) -> Failure? where Bytes.Element == UInt8 {
        let result: Failure? = bytes.withContiguousStorageIfAvailable { buffer in
            var scanner = Scanner(buffer)
            return scanner.document()
        } ?? {
            let copy = Array(bytes)
            return copy.withUnsafeBufferPointer { buffer in
                var scanner = Scanner(buffer)
                return scanner.document()
            }
        }()
        return result
    }

    /// `check`, also listing the members of every object of a top-level object, down to
    /// `deepestListed`, as their values end, so readers need no second pass. `listedAll` says
    /// whether that is every member (no object lies deeper): then `members` is a whole index of the
    /// document (`MemberIndex`). `members` is emptied first; on failure it holds whatever was found
    /// before.
    public static func check(_ bytes: UnsafeBufferPointer<UInt8>, members: inout [Member],
                             listedAll: inout Bool) -> Failure? {
        var scanner = Scanner(bytes)
        members.removeAll(keepingCapacity: true)
        swap(&scanner.members, &members)
        scanner.collecting = true
        let failure = scanner.document()
        swap(&scanner.members, &members)
        listedAll = failure == nil && scanner.collecting && !scanner.passedDeeperObject
        return failure
    }

    /// Whether the document's value is an object (its first byte after whitespace is `{`): with
    /// `check`, what an envelope reader needs to know before reading members.
    public static func isObject(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D } == UInt8(ascii: "{")
    }
}
