extension Duration {
    /// In seconds (a `TimeInterval`).
    public var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }

    /// In microseconds.
    public var inMicroseconds: Double { Double(components.seconds) * 1e6 + Double(components.attoseconds) / 1e12 }

    /// In whole nanoseconds, rounded down (0 for a negative duration).
    public var wholeNanoseconds: UInt64 {
        guard self > .zero else { return 0 }
        return UInt64(clamping: components.seconds) &* 1_000_000_000 &+ UInt64(components.attoseconds / 1_000_000_000)
    }

    /// In whole milliseconds, rounded down.
    public var wholeMilliseconds: Int {
        Int(clamping: components.seconds &* 1000 &+ components.attoseconds / 1_000_000_000_000_000)
    }
}
