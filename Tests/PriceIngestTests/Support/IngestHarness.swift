import Dispatch
import Foundation
import Messages
import PriceIngest
import ServiceKit
import ServiceTesting
import Synchronization
import ZeroMQ

/// price-ingest in-process on a data directory the test owns, with a client and a price subscriber.
final class IngestHarness {
    let directory: URL
    let client: RequestClient
    private let service: InProcessService
    private let holder: ServiceHolder
    private let subscriber: Socket
    /// The client's and subscriber's own context, so stopping the service waits for none of them.
    private let clientContext = Context()
    private var stopped = false

    /// The service's request endpoint, for a test's own sockets.
    var endpoint: String { service.endpoint }

    /// Runs `body` with the service started on `directory` (its SQLite file is
    /// `directory/price-ingest.sqlite`), and stops it afterwards, even when `body` throws.
    static func with<Result>(directory: URL, feeds: FeedList? = nil, fileRoot: FileFeedRoot? = nil,
                             configure: (inout PriceIngestConfiguration) -> Void = { _ in },
                             _ body: (IngestHarness) throws -> Result) throws -> Result {
        let harness = try IngestHarness(directory: directory, feeds: feeds, fileRoot: fileRoot, configure: configure)
        defer { harness.stop() }
        return try body(harness)
    }

    /// Starts the service and a subscriber that has seen one heartbeat, so every later update reaches it.
    private init(directory: URL, feeds: FeedList?, fileRoot: FileFeedRoot?,
                 configure: (inout PriceIngestConfiguration) -> Void) throws {
        self.directory = directory
        let holder = ServiceHolder()
        var configuration = PriceIngestConfiguration(endpoint: "tcp://127.0.0.1:*",
                                                     publishEndpoint: "tcp://127.0.0.1:*", dataDirectory: directory)
        configuration.heartbeatInterval = .milliseconds(20)
        if let feeds { configuration.feeds = feeds }
        configuration.fetcher.fileRoot = fileRoot
        configure(&configuration)
        let quiet = Logger(label: "price-ingest-test", level: .critical)
        let service = try InProcessService.start { [configuration] context in
            let service = try PriceIngestService(context: context, configuration: configuration, logger: quiet)
            holder.keep(service)
            return service.server
        }
        do {
            client = try RequestClient(context: clientContext, endpoint: service.endpoint, timeout: .seconds(20),
                                       retries: 0)
            subscriber = try Socket(clientContext, .sub)
            subscriber.linger = .zero
            subscriber.receiveTimeout = .seconds(10)
            try subscriber.subscribe("prices.")
            try subscriber.connect(holder.publishEndpoint)
        } catch {
            service.stop()
            holder.release()
            throw error
        }
        self.service = service
        self.holder = holder
        _ = try nextPublished(topic: PriceTopic.heartbeat)
    }

    /// Sends `ingest.feed` for `feed`.
    func ingest(_ feed: Data, retailer: String = "asda") throws -> Reply<IngestFeedReply> {
        try decodeReply(client.callRaw(MessageType.ingestFeed.rawValue,
                                       rawBody: TestFeeds.ingestBody(retailer: retailer, feed: feed)))
    }

    /// Sends `ingest.feed` with `body` as it is.
    func ingest(rawBody body: String) throws -> Reply<IngestFeedReply> {
        try decodeReply(client.callRaw(MessageType.ingestFeed.rawValue, rawBody: Data(body.utf8)))
    }

    /// Sends `ingest.feed` with a URL for the service to fetch.
    func ingest(url: URL, retailer: String = "asda") throws -> Reply<IngestFeedReply> {
        let body = #"{"retailer":"\#(retailer)","url":"\#(url.absoluteString)"}"#
        return try decodeReply(client.callRaw(MessageType.ingestFeed.rawValue, rawBody: Data(body.utf8)))
    }

    /// `ingest.remove` of `retailer`.
    func remove(_ retailer: String) throws -> Reply<RemoveRetailerReply> {
        try JSONCoding.makeDecoder().decode(Reply<RemoveRetailerReply>.self, from: client.callRaw(
            MessageType.ingestRemove.rawValue, rawBody: JSONCoding.encode(RemoveRetailerRequest(retailer: retailer))))
    }

    /// `ingest.snapshot` without a retailer: the index of retailers held.
    func snapshotIndex() throws -> SnapshotReply {
        try client.call(.ingestSnapshot, SnapshotRequest(), as: SnapshotReply.self)
    }

    /// `ingest.status`: every feed record.
    func status() throws -> [FeedRecord] {
        try client.call(.ingestStatus, EmptyBody(), as: [FeedRecord].self)
    }

    /// `ingest.snapshot` of one retailer.
    func state(of retailer: String) throws -> RetailerState? {
        try client.call(.ingestSnapshot, SnapshotRequest(retailer: retailer), as: SnapshotReply.self).state
    }

    /// The next `prices.update` published, skipping heartbeats.
    func nextUpdate() throws -> RetailerState {
        try JSONCoding.makeDecoder().decode(RetailerState.self, from: nextPublished(topic: PriceTopic.update))
    }

    /// Stops the service and closes its store, so the test can open the file itself.
    func stop() {
        guard !stopped else { return }
        stopped = true
        subscriber.close()
        service.stop()
        holder.release()
    }

    deinit { stop() }

    /// The next message on `topic`, within 10 s (heartbeats come every 20 ms: the receive's own
    /// timeout alone would never end a wait for an update that is not coming).
    private func nextPublished(topic: String) throws -> Data {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let frames = try subscriber.receive()
            if frames.count == 2, String(decoding: frames[0], as: UTF8.self) == topic { return frames[1] }
        }
        throw NothingPublished(topic: topic)
    }

    struct NothingPublished: Error, CustomStringConvertible {
        let topic: String
        var description: String { "nothing published on \(topic) within 10 s" }
    }

    /// Waits (up to 10 s) until `ingest.status` lists `retailer` as stored.
    func waitUntilStored(_ retailer: String) throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if try status().contains(where: { $0.retailer == retailer && $0.version != nil }) { return }
            _ = DispatchSemaphore(value: 0).wait(timeout: .now() + .milliseconds(20))
        }
        throw NothingPublished(topic: "ingest.status for \(retailer)")
    }

    private func decodeReply(_ data: Data) throws -> Reply<IngestFeedReply> {
        try JSONCoding.makeDecoder().decode(Reply<IngestFeedReply>.self, from: data)
    }
}

/// Keeps the service alive while its server runs (its handlers hold it `unowned`) and hands its
/// publish endpoint to the test thread.
private final class ServiceHolder: @unchecked Sendable {
    private let lock = NSLock()
    private var service: PriceIngestService?
    private var endpoint = ""

    var publishEndpoint: String { lock.withLock { endpoint } }

    func keep(_ service: PriceIngestService) {
        lock.withLock {
            self.service = service
            endpoint = service.publishEndpoint
        }
    }

    func release() {
        lock.withLock { service = nil }
    }
}
