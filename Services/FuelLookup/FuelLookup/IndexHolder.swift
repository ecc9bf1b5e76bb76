import Synchronization

/// The index currently served, swapped whole by the sync thread and read by the serving loop.
///
/// A reader takes one reference and answers from it alone, so an answer never mixes two
/// versions and never waits for a rebuild.
public final class IndexHolder: Sendable {
    /// An index and the price-ingest version it was built from.
    public struct Current: Sendable {
        public let index: PriceIndex
        public let version: UInt64
    }

    private let current: Mutex<Current>

    public init(_ index: PriceIndex = PriceIndex(stations: []), version: UInt64 = 0) {
        current = Mutex(Current(index: index, version: version))
    }

    public func load() -> Current {
        current.withLock { $0 }
    }

    public func swap(_ index: PriceIndex, version: UInt64) {
        let replacement = Current(index: index, version: version)
        current.withLock { $0 = replacement }
    }
}
