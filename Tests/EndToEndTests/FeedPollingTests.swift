import Foundation
import Messages
import ServiceKit
import ServiceTesting
import TestSupport
import Testing
import ZeroMQ

/// price-ingest polling its `--feeds` list by itself, and reporting each feed's status.
struct FeedPollingTests {
    @Test func feedsList_whenStarted_ingestsEveryListedFeedAndReportsItsStatus() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fuelboard-poll-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = directory.appendingPathComponent("files")
        let good = try FeedFixtures.write(FeedFixtures.feed(FeedFixtures.selby), name: "polled", in: files)
        let missing = files.appendingPathComponent("absent.json")
        let list = files.appendingPathComponent("feeds.txt")
        try """
            # retailer  url
            tesco       \(good.absoluteString)
            gone        \(missing.absoluteString)
            """.write(to: list, atomically: true, encoding: .utf8)
        let ingest = try ServiceProcess("price-ingest", [
            "--data-dir", directory.appendingPathComponent("ingest").path, "--bind", "tcp://127.0.0.1:*", "--bind-pub", "tcp://127.0.0.1:*",
            "--feeds", list.path, "--poll-interval", "1h",
        ])
        let endpoint = try ingest.endpoint()
        try ingest.waitForLog { $0.contains("feed ingested") && $0.contains("retailer=tesco") }
        try ingest.waitForLog { $0.contains("fetch failed") && $0.contains("retailer=gone") }

        let client = try RequestClient(context: Context(), endpoint: endpoint, timeout: .seconds(5), retries: 0)
        let stats = try client.call(.sysStats, EmptyBody(), as: StatsBody.self)
        guard case .array(let feeds)? = stats.details["feeds"] else {
            Issue.record("sys.stats has no feeds: \(stats.details)")
            return
        }
        let byRetailer = Dictionary(uniqueKeysWithValues: feeds.compactMap { feed -> (String, [String: JSONValue])? in
            guard case .object(let row) = feed, let name = row["retailer"]?.stringValue else { return nil }
            return (name, row)
        })
        #expect(byRetailer["tesco"]?["lastSuccess"] != nil)
        #expect(byRetailer["tesco"]?["stations"] == .number(4))
        #expect(byRetailer["tesco"]?["feedAgeHours"] != nil)
        #expect(byRetailer["gone"]?["lastError"]?.stringValue?.contains("cannot read") == true)
        #expect(byRetailer["gone"]?["lastSuccess"] == nil)
        // A feed that never worked has no age to alert on: `failing` says it (and tesco's does not).
        #expect(byRetailer["gone"]?["failing"] == .bool(true) && byRetailer["tesco"]?["failing"] == .bool(false))
        #expect(byRetailer["gone"]?["polled"] == .bool(true))
        #expect(try ingest.terminate() == 0)

        // Started again without the list: the failure stays on record, but nobody polls the feed.
        let unlisted = try ServiceProcess("price-ingest", [
            "--data-dir", directory.appendingPathComponent("ingest").path, "--bind", "tcp://127.0.0.1:*",
            "--bind-pub", "tcp://127.0.0.1:*",
        ])
        let again = try RequestClient(context: Context(), endpoint: try unlisted.endpoint(), timeout: .seconds(5), retries: 0)
        guard case .array(let rows)? = try again.call(.sysStats, EmptyBody(), as: StatsBody.self).details["feeds"] else {
            Issue.record("sys.stats has no feeds")
            return
        }
        let gone = rows.first { if case .object(let row) = $0 { row["retailer"] == .string("gone") } else { false } }
        guard case .object(let row)? = gone else {
            Issue.record("no row for gone: \(rows)")
            return
        }
        #expect(row["failing"] == .bool(true) && row["polled"] == .bool(false))
        #expect(try unlisted.terminate() == 0)
    }

    @Test func feedsList_whenMalformed_exits64() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fuelboard-poll-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let list = directory.appendingPathComponent("feeds.txt")
        try "tesco\n".write(to: list, atomically: true, encoding: .utf8)
        let ingest = try ServiceProcess("price-ingest", ["--feeds", list.path, "--data-dir", directory.path,
                                                         "--bind", "tcp://127.0.0.1:*", "--bind-pub", "tcp://127.0.0.1:*"])
        #expect(try ingest.waitForExit() == 64)
        #expect(ingest.log.contains("feeds list line 1"))
    }

    /// `--file-root` is checked at the start: a root that is no directory, and a polled `file://`
    /// feed outside it (it would fail at every poll), stop the start with 64 and a line naming them.
    @Test func fileRoot_thatCannotBeUsed_orAPolledFileOutsideIt_exits64() throws {
        try withTemporaryDirectory { directory in
            let root = directory.appendingPathComponent("feeds")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            let list = directory.appendingPathComponent("feeds.txt")
            try "tesco file://\(directory.path)/tesco.json\n".write(to: list, atomically: true, encoding: .utf8)
            let common = ["--data-dir", directory.path, "--bind", "tcp://127.0.0.1:*", "--bind-pub", "tcp://127.0.0.1:*"]
            let noRoot = try ServiceProcess("price-ingest", common + ["--file-root", root.path + "/nope"])
            #expect(try noRoot.waitForExit() == 64)
            #expect(noRoot.log.contains("--file-root") && noRoot.log.contains("No such file"), "\(noRoot.log)")
            let outside = try ServiceProcess("price-ingest", common + ["--file-root", root.path, "--feeds", list.path])
            #expect(try outside.waitForExit() == 64)
            #expect(outside.log.contains("--feeds: tesco: file:// feeds are read only under \(root.path)"), "\(outside.log)")
            let check = try ServiceProcess("price-ingest", common + ["--file-root", root.path, "--check-config"])
            #expect(try check.waitForExit() == 0)
            #expect(check.log.contains("file-root=\(root.path)"), "\(check.log)")
        }
    }
}
