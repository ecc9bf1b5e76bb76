import DialogRenderer
import Foundation
import IntentRouter
import LocationCache
import Messages
import ServiceKit
import ServiceTesting
import ZeroMQ

/// intent-router in-process with the real services behind it: price-ingest and fuel-lookup as
/// processes (fed one small CMA feed), location-cache and dialog-renderer in-process.
final class RealServices {
    static let selby = Coordinate(lat: 53.7830, lng: -1.0670)
    static let now = Date(timeIntervalSince1970: 1_764_400_000)

    private let ingest: ServiceProcess
    /// fuel-lookup replicas, all fed by the same price-ingest; the router spreads calls over them.
    private(set) var lookups: [ServiceProcess] = []
    private(set) var lookupEndpoints: [String] = []
    private let location: InProcessService
    private let dialog: InProcessService?
    private let router: InProcessService
    /// What the router takes for location-cache when it hangs (accepts requests, never answers).
    private let hungLocation: SilentBackend?
    private let dataDirectory: URL
    let client: RequestClient
    var routerEndpoint: String { router.endpoint }
    var locationEndpoint: String { location.endpoint }

    /// Starts everything; `dialogDown` leaves dialog-renderer out (nobody serves its endpoint).
    /// `loadingReplicas` more fuel-lookups listen but never load prices (their price-ingest is
    /// nowhere), so they answer every lookup `unavailable`, as a replica does while it starts.
    /// `locationHangs` points the router at a location-cache that never answers. `locationClock`
    /// stops location-cache's clock at that time (nil: it runs on the wall clock).
    init(dialogDown: Bool = false, lookupReplicas: Int = 1, loadingReplicas: Int = 0,
         locationHangs: Bool = false, locationClock: Date? = nil) throws {
        let quiet = Logger(label: "test", level: .critical)
        dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("router-it-\(UUID().uuidString)")
        ingest = try ServiceProcess("price-ingest", ["--data-dir", dataDirectory.appendingPathComponent("ingest").path,
                                                     "--bind", "tcp://127.0.0.1:*", "--bind-pub", "tcp://127.0.0.1:*"])
        let ingestEndpoint = try ingest.endpoint(event: "listening")
        let publishEndpoint = try ingest.endpoint(event: "publishing")
        let version = try Self.ingestFeed(at: ingestEndpoint)
        for _ in 0..<lookupReplicas {
            let lookup = try ServiceProcess("fuel-lookup", ["--ingest", ingestEndpoint, "--ingest-pub", publishEndpoint,
                                                            "--bind", "tcp://127.0.0.1:*"])
            lookups.append(lookup)
            lookupEndpoints.append(try lookup.endpoint())
            try lookup.waitForLog(timeout: .seconds(20)) { line in
                guard line.contains("index swapped"), let range = line.range(of: "version=") else { return false }
                return UInt64(line[range.upperBound...].prefix { $0.isNumber }) ?? 0 >= version
            }
        }
        for _ in 0..<loadingReplicas {
            let nowhere = try unservedEndpoint()
            let lookup = try ServiceProcess("fuel-lookup", ["--ingest", nowhere, "--ingest-pub", nowhere,
                                                            "--bind", "tcp://127.0.0.1:*"])
            lookups.append(lookup)
            lookupEndpoints.append(try lookup.endpoint())
        }
        let lookupEndpoint = lookupEndpoints.joined(separator: ",")
        let locationDirectory = dataDirectory.appendingPathComponent("location")
        var locationConfiguration = LocationCacheConfiguration(endpoint: "tcp://127.0.0.1:*",
                                                               dataDirectory: locationDirectory)
        if let locationClock { locationConfiguration.now = { locationClock } }
        location = try InProcessService.start { [locationConfiguration] context in
            try LocationCacheService(context: context, configuration: locationConfiguration, logger: quiet).server
        }
        dialog = dialogDown ? nil : try InProcessService.start { context in
            try DialogRendererService(context: context, bind: "tcp://127.0.0.1:*",
                                      handler: DialogRendererService.makeHandler(templates: nil), logger: quiet).server
        }
        hungLocation = locationHangs ? try SilentBackend() : nil
        router = try RouterHarness.start(location: hungLocation?.endpoint ?? location.endpoint, lookup: lookupEndpoint,
                                         dialog: try dialog?.endpoint ?? unservedEndpoint())
        client = try RouterHarness.client(router)
    }

    func stop() {
        for service in [router, dialog, location] { service?.stop() }
        for lookup in lookups where lookup.isRunning { _ = try? lookup.terminate() }
        _ = try? ingest.terminate()
        try? FileManager.default.removeItem(at: dataDirectory)
    }

    /// How many requests of each type location-cache has served.
    func locationRequests() throws -> [String: UInt64] {
        let client = try RequestClient(context: Context(), endpoint: location.endpoint, timeout: .seconds(5), retries: 0)
        return try client.call(.sysStats, EmptyBody(), as: StatsBody.self).requestsByType
    }

    /// `user`'s preferences as location-cache holds them.
    func preferences(user: String = "u1") throws -> Preferences {
        let client = try RequestClient(context: Context(), endpoint: location.endpoint, timeout: .seconds(5), retries: 0)
        return try client.call(.preferencesGet, UserRequest(user: user), as: Preferences.self)
    }

    /// Stores a location for `user` straight in location-cache, as observed `at`.
    func putLocation(_ location: Coordinate, user: String = "u1", at: Date) throws -> LocationPutReply {
        let client = try RequestClient(context: Context(), endpoint: self.location.endpoint, timeout: .seconds(5),
                                       retries: 0)
        let request = LocationPutRequest(user: user, lat: location.lat, lng: location.lng, at: at)
        return try client.call(.locationPut, request, as: LocationPutReply.self)
    }

    func ask(_ utterance: String, user: String = "u1", at location: Coordinate? = nil,
             session: String? = nil) throws -> AssistantReply {
        try client.call(.assistantAsk, AssistantAskRequest(user: user, utterance: utterance, location: location,
                                                           session: session, now: Self.now), as: AssistantReply.self)
    }

    /// Two stations near Selby, sent inline as a CMA feed; returns the version it created.
    /// The cheaper diesel is at the farther one (about 2 miles), the nearer one is within a mile.
    /// Ingests one more retailer's CMA feed and waits until every loaded fuel-lookup has it.
    func ingest(retailer: String, feed: String) throws {
        let client = try RequestClient(context: Context(), endpoint: try ingest.endpoint(event: "listening"),
                                       timeout: .seconds(20), retries: 0)
        let body = Data(#"{"retailer":"\#(retailer)","feed":\#(feed)}"#.utf8)
        let data = try client.callRaw(MessageType.ingestFeed.rawValue, rawBody: body)
        let version = try JSONCoding.makeDecoder().decode(Reply<IngestFeedReply>.self, from: data).result().version
        for lookup in lookups.prefix(lookupEndpoints.count) where lookup.isRunning {
            try lookup.waitForLog(timeout: .seconds(20)) { line in
                guard line.contains("index swapped"), let range = line.range(of: "version=") else { return false }
                return UInt64(line[range.upperBound...].prefix { $0.isNumber }) ?? 0 >= version
            }
        }
    }

    private static func ingestFeed(at endpoint: String) throws -> UInt64 {
        let feed = """
            {"last_updated": "29/11/2025 06:30:00", "stations": [
              {"site_id": "near", "brand": "JET", "address": "Doncaster Road, Selby", "postcode": "YO8 4AA",
               "location": {"latitude": 53.7860, "longitude": -1.0700}, "prices": {"B7": 145.9, "E10": 135.9}},
              {"site_id": "far", "brand": "TESCO", "address": "Bawtry Road, Selby", "postcode": "YO8 9ZZ",
               "location": {"latitude": 53.8120, "longitude": -1.0500}, "prices": {"B7": 139.9, "E10": 138.9}}
            ]}
            """
        let client = try RequestClient(context: Context(), endpoint: endpoint, timeout: .seconds(20), retries: 0)
        let body = Data(#"{"retailer":"test","feed":\#(feed)}"#.utf8)
        let data = try client.callRaw(MessageType.ingestFeed.rawValue, rawBody: body)
        return try JSONCoding.makeDecoder().decode(Reply<IngestFeedReply>.self, from: data).result().version
    }
}
