extension Sequence where Element == UInt8 {
    /// True when every byte is printable ASCII (space to `~`): then each byte is one character and
    /// none is a control character, so byte counts and byte slices stand for characters.
    @inlinable
    public var isPrintableASCII: Bool {
        allSatisfy { $0 >= 0x20 && $0 <= 0x7E }
    }
}
