/// Picks one reply in `oneIn` at random, for the content check past its first replies a second.
/// At random, so a server whose faults come in a rhythm (every other reply) cannot fall in step
/// with the sample; cheap (xorshift64), as it runs on every reply past those.
struct ReplySampler {
    let oneIn: UInt64
    /// The generator's state: any start but zero; a fixed one, so a run's sample repeats.
    private var state: UInt64 = 0x9E37_79B9_7F4A_7C15

    init(oneIn: Int) { self.oneIn = UInt64(max(oneIn, 1)) }

    /// Whether this reply is one of the sample.
    mutating func take() -> Bool {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return state % oneIn == 0
    }
}
