import Foundation
import Messages
import ServiceKit
import ServiceTesting
import Testing
import ZeroMQ

/// price-ingest and fuel-lookup as real processes on ephemeral loopback ports, with a private
/// data directory, plus clients to talk to them.
final class DataPathStack {
    let dataDirectory: URL
    private(set) var ingest: ServiceProcess
    private(set) var lookup: ServiceProcess?
    private(set) var ingestEndpoint: String
    private(set) var publishEndpoint: String
    private(set) var lookupEndpoint: String?
    let context = Context()

    init(startLookup: Bool = true) throws {
        dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("fuelboard-e2e-\(UUID().uuidString)")
        (ingest, ingestEndpoint, publishEndpoint) = try Self.startIngest(dataDirectory, bind: "tcp://127.0.0.1:*",
                                                                       bindPub: "tcp://127.0.0.1:*")
        if startLookup { try self.startLookup() }
    }

    deinit {
        try? FileManager.default.removeItem(at: dataDirectory)
    }

    private static func startIngest(_ directory: URL, bind: String, bindPub: String) throws
        -> (ServiceProcess, String, String)
    {
        let process = try ServiceProcess("price-ingest", ["--data-dir", directory.path, "--bind", bind,
                                                          "--bind-pub", bindPub])
        return (process, try process.endpoint(event: "listening"), try process.endpoint(event: "publishing"))
    }

    func startLookup() throws {
        let process = try ServiceProcess("fuel-lookup", ["--ingest", ingestEndpoint, "--ingest-pub", publishEndpoint,
                                                         "--bind", "tcp://127.0.0.1:*"])
        lookup = process
        lookupEndpoint = try process.endpoint()
    }

    /// Restarts price-ingest on the same ports and data directory (after a kill or a stop).
    func restartIngest() throws {
        (ingest, _, _) = try Self.startIngest(dataDirectory, bind: ingestEndpoint, bindPub: publishEndpoint)
    }

    func ingestClient(timeout: Duration = .seconds(30)) throws -> RequestClient {
        try RequestClient(context: context, endpoint: ingestEndpoint, timeout: timeout, retries: 0)
    }

    func lookupClient() throws -> RequestClient {
        try RequestClient(context: context, endpoint: lookupEndpoint ?? "", timeout: .seconds(5), retries: 0)
    }

    /// Sends a feed file inline, as the CLI does, and returns the reply.
    /// Writes a feed file under the stack's data directory, so it goes when the stack does.
    func writeFeed(_ data: Data, name: String) throws -> URL {
        try FeedFixtures.write(data, name: name, in: dataDirectory.appendingPathComponent("fixtures"))
    }

    func ingestFile(_ url: URL, retailer: String) throws -> IngestFeedReply {
        var body = Data(#"{"retailer":"\#(retailer)","feed":"#.utf8)
        body.append(try Data(contentsOf: url))
        body.append(Data("}".utf8))
        let data: Data
        do {
            data = try ingestClient().callRaw(MessageType.ingestFeed.rawValue, rawBody: body)
        } catch {
            // Say what price-ingest was doing: a silent timeout says nothing about why.
            Issue.record("ingest of \(retailer) failed: \(error); price-ingest's log:\n\(ingest.log.suffix(3000))")
            throw error
        }
        return try JSONCoding.makeDecoder().decode(Reply<IngestFeedReply>.self, from: data).result()
    }

    /// Waits until fuel-lookup has swapped in an index of at least `version` (its log says so).
    func waitForLookupVersion(_ version: UInt64, timeout: Duration = .seconds(20)) throws {
        guard let lookup else { return }
        try lookup.waitForLog(timeout: timeout) { line in
            guard line.contains("index swapped"), let range = line.range(of: "version=") else { return false }
            return UInt64(line[range.upperBound...].prefix { $0.isNumber }) ?? 0 >= version
        }
    }
}
