import FeedParsing
import Foundation
import Synchronization
import ZeroMQ

/// Parses feeds away from the loop thread, one at a time in the order given, and wakes the loop
/// when one is done. A large feed takes seconds to parse (90,000 stations, 20 MB: 4.0–4.4 s in a
/// release build); parsed on the loop, price-ingest answered nothing meanwhile: pings timed out
/// and replicas took it for gone. One at a time, so a burst of feeds takes one core, not both, and
/// feeds are committed in the order they came.
///
/// The loop hands a feed over with `parse`, and receives a ticket on the inproc PULL socket it
/// watches when the result is ready; `take` gives the result for it.
final class FeedParseQueue: Sendable {
    typealias Outcome = Result<ParsedFeed, FeedError>
    /// A parse's outcome and how long it took (logged with the feed).
    struct Parsed: Sendable {
        let outcome: Outcome
        let took: Duration
    }

    private let queue: OperationQueue
    private let results = Mutex<[UInt64: Parsed]>([:])
    private let context: Context
    private let endpoint: String
    /// Feeds handed over and not yet taken back.
    let waiting = Atomic<Int>(0)

    /// Binds `socket` (a PULL the loop watches) to a fresh inproc endpoint for the wake-ups.
    init(context: Context, socket: Socket) throws(ZMQError) {
        self.context = context
        endpoint = try socket.bind("inproc://price-ingest-parse-\(UUID().uuidString)")
        queue = OperationQueue()
        queue.name = "price-ingest.parse"
        queue.maxConcurrentOperationCount = 1
    }

    /// Parses `data` as `retailer`'s feed with `parser`; the loop hears `ticket` when it is done.
    func parse(_ data: Data, retailer: String, fetchedAt: Date, parser: FeedParser, ticket: UInt64) {
        waiting.add(1, ordering: .relaxed)
        queue.addOperation { @Sendable [self] in
            let started = ContinuousClock.now
            let outcome = Outcome { () throws(FeedError) in
                try parser.parse(data, retailer: retailer, fetchedAt: fetchedAt)
            }
            let parsed = Parsed(outcome: outcome, took: ContinuousClock.now - started)
            results.withLock { $0[ticket] = parsed }
            // A socket per feed (feeds are seconds apart): a socket belongs to one thread at a time.
            guard let socket = try? Socket(context, .push) else { return }
            socket.linger = .seconds(1)
            try? socket.connect(endpoint)
            try? socket.send([Self.frame(ticket)])
        }
    }

    /// The result for the ticket in a wake-up's frames, once (nil for frames that are not one).
    func take(_ frames: [Data]) -> (ticket: UInt64, parsed: Parsed)? {
        guard frames.count == 1, frames[0].count == 8 else { return nil }
        let ticket = frames[0].withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
        guard let parsed = results.withLock({ $0.removeValue(forKey: ticket) }) else { return nil }
        waiting.subtract(1, ordering: .relaxed)
        return (ticket, parsed)
    }

    private static func frame(_ ticket: UInt64) -> Data {
        withUnsafeBytes(of: ticket.littleEndian) { Data($0) }
    }
}
