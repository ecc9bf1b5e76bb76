import Foundation
import IntentRouter
import Messages
import ServiceKit
import ServiceTesting
import Testing
import ZeroMQ

/// The Swift example (examples/station-prices-swift) end to end: price-ingest and fuel-lookup
/// as processes with two Tesco stations in Selby, the router in-process, the example as a process.
struct StationPricesExampleTests {
    @Test func stationPrices_withTwoTescosInSelby_asksWhichAndAnswersTheNextUtterance() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("station-prices-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let ingest = try ServiceProcess("price-ingest", ["--data-dir", data.path, "--bind", "tcp://127.0.0.1:*",
                                                         "--bind-pub", "tcp://127.0.0.1:*"])
        defer { _ = try? ingest.terminate() }
        let ingestEndpoint = try ingest.endpoint(event: "listening")
        let version = try Self.ingestTwoTescos(at: ingestEndpoint)
        let lookup = try ServiceProcess("fuel-lookup", ["--ingest", ingestEndpoint, "--ingest-pub",
                                                        try ingest.endpoint(event: "publishing"),
                                                        "--bind", "tcp://127.0.0.1:*"])
        defer { _ = try? lookup.terminate() }
        let lookupEndpoint = try lookup.endpoint()
        try lookup.waitForLog(timeout: .seconds(20)) { line in
            guard line.contains("index swapped"), let range = line.range(of: "version=") else { return false }
            return UInt64(line[range.upperBound...].prefix { $0.isNumber }) ?? 0 >= version
        }
        let harness = try PluginHarness()
        defer { harness.stop() }
        let example = try ServiceProcess("station-prices", ["--plugins", harness.plugins, "--lookup", lookupEndpoint])
        defer { _ = try? example.terminate() }
        try example.waitForLog { $0.contains(": registered") }

        let question = try harness.ask("Ask FuelBoard what does diesel cost at the Tesco in Selby")
        #expect(question.code == .disambiguation)
        #expect(question.dialog == "There are two Tesco stations in Selby: Doncaster Road or Portholme Road?")
        let answer = try harness.ask("Portholme Road", session: question.session)
        #expect(answer.code == .success)
        // The feed is from 29 Nov 2025, a year before these tests were written: its age is said.
        #expect(answer.dialog == "Diesel costs £1.399 at Tesco, Portholme Road — prices as of 29 Nov 2025 at 6:30 AM. "
            + "These prices may be out of date.")
        #expect(answer.snippet?.freshness == "prices as of 29 Nov 2025 at 6:30 AM")
        #expect(answer.snippet?.stale == true)
        #expect(answer.snippet?.id == "test/portholme")
        #expect(answer.snippet?.pricePence == 139.9)
        #expect(!answer.dialog.contains("retailer's other stations"))

        // A price far below the retailer's others is said to be doubtful, as built-in answers say it.
        let again = try harness.ask("Ask FuelBoard what does unleaded cost at the Tesco in Selby")
        let doubtful = try harness.ask("Doncaster Road", session: again.session)
        #expect(doubtful.dialog == "Unleaded costs £0.959 at Tesco, Doncaster Road — prices as of 29 Nov 2025 at 6:30 AM. "
            + "These prices may be out of date. That price is also much lower than at the retailer's other stations.")
    }

    /// Two Tesco stations in Selby and a Jet, as an inline CMA feed; returns its version. Doncaster
    /// Road's unleaded (95.9p) is far below the feed's median (134.9p): an outlier.
    private static func ingestTwoTescos(at endpoint: String) throws -> UInt64 {
        let feed = """
            {"last_updated": "29/11/2025 06:30:00", "stations": [
              {"site_id": "doncaster", "brand": "TESCO", "address": "Doncaster Road, Selby", "postcode": "YO8 9AA",
               "location": {"latitude": 53.7760, "longitude": -1.0720}, "prices": {"B7": 142.9, "E10": 95.9}},
              {"site_id": "portholme", "brand": "TESCO", "address": "Portholme Road, Selby", "postcode": "YO8 4QH",
               "location": {"latitude": 53.7800, "longitude": -1.0600}, "prices": {"B7": 139.9, "E10": 134.9}},
              {"site_id": "jet", "brand": "JET", "address": "Bawtry Road, Selby", "postcode": "YO8 8AB",
               "location": {"latitude": 53.7700, "longitude": -1.0650}, "prices": {"B7": 145.9, "E10": 137.9}}
            ]}
            """
        let client = try RequestClient(context: Context(), endpoint: endpoint, timeout: .seconds(20), retries: 0)
        let data = try client.callRaw(MessageType.ingestFeed.rawValue,
                                      rawBody: Data(#"{"retailer":"test","feed":\#(feed)}"#.utf8))
        return try JSONCoding.makeDecoder().decode(Reply<IngestFeedReply>.self, from: data).result().version
    }
}
