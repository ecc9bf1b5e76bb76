import Foundation
import Messages
import ServiceKit
import ServiceTesting
import TestSupport
import Testing
import ZeroMQ

/// `fuelboard ingest`: its exit status tells a feed price-ingest could not take (1) from
/// price-ingest not answering at all (69).
struct IngestCommandTests {
    @Test func aFeedURLNobodyServes_isPriceIngestsAnswer_soExitStatus1() throws {
        let stack = try DataPathStack(startLookup: false)
        let port = try #require(try unservedEndpoint().split(separator: ":").last)
        let cli = try ServiceProcess("fuelboard", ["ingest", "http://127.0.0.1:\(port)/feed.json", "--retailer", "x",
                                                   "--ingest", stack.ingestEndpoint])
        #expect(try cli.waitForExit(timeout: .seconds(60)) == 1, "\(cli.log)")
        #expect(cli.log.contains("could not fetch the x feed"), "\(cli.log)")
    }

    /// A file over the feed limit is refused before sending: one over price-ingest's request limit
    /// got a reply without an id, and the CLI waited 120 s, then called price-ingest down (QA).
    /// The stand-in answers pings and nothing else, so a feed sent would wait out the test.
    @Test func aFileOverTheFeedLimit_isRefusedBeforeSending_exitStatus1() throws {
        let silent = try RawLookupServer { _, _ in nil }
        defer { silent.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("big-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let big = directory.appendingPathComponent("big.json")
        #expect(FileManager.default.createFile(atPath: big.path, contents: Data("{}".utf8)))
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: UInt64(IngestFeedRequest.maxFeedBytes + 1))  // sparse: no 32 MiB written
        try handle.close()
        let run = try CommandRun.fuelboard(["ingest", big.path, "--retailer", "x", "--ingest", silent.endpoint])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("big.json is \(IngestFeedRequest.maxFeedBytes + 1) bytes, over the 32 MiB a feed "
            + "may be [too_large]"), "\(run.stderr)")
    }

    /// `--timeout` bounds each feed's wait when given: it was ignored for at least 120 s (QA).
    @Test func timeout_whenGiven_boundsEachFeedsWait() throws {
        let silent = try RawLookupServer { _, _ in nil }
        defer { silent.stop() }
        let started = ContinuousClock.now
        let run = try CommandRun.fuelboard(["ingest", "http://127.0.0.1:9/feed.json", "--retailer", "x",
                                            "--ingest", silent.endpoint, "--timeout", "1s"])
        #expect(run.status == 69, "\(run.stderr)")
        #expect(run.stderr.contains("no reply"), "\(run.stderr)")
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    /// `ingest --remove`: the retailer goes from price-ingest and from fuel-lookup's answers; the
    /// other retailer stays; a second removal finds nothing (1).
    @Test func remove_takesARetailerOutOfTheLookupsAnswers() throws {
        let stack = try DataPathStack()
        let tesco = try stack.ingestFile(try stack.writeFeed(FeedFixtures.feed(FeedFixtures.selby), name: "tesco"),
                                         retailer: "tesco")
        var dearer = FeedFixtures.selby
        for index in dearer.indices { dearer[index].prices["B7"] = 199.9 }
        let asda = try stack.ingestFile(try stack.writeFeed(FeedFixtures.feed(dearer), name: "asda"), retailer: "asda")
        try stack.waitForLookupVersion(max(tesco.version, asda.version))
        #expect(try cheapestB7(stack)?.station.retailer == "tesco")

        let run = try CommandRun.fuelboard(["ingest", "--remove", "tesco", "--ingest", stack.ingestEndpoint])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "Removed tesco: \(FeedFixtures.selby.count) station(s), store version \(asda.version + 1).\n")
        try stack.waitForLookupVersion(asda.version + 1)
        #expect(try cheapestB7(stack)?.station.retailer == "asda")

        let again = try CommandRun.fuelboard(["ingest", "--remove", "tesco", "--ingest", stack.ingestEndpoint])
        #expect(again.status == 1)
        #expect(again.stderrLines == ["fuelboard: remove failed: no stations or feed stored for retailer 'tesco' [not_found]"])
        for mixed in [["feeds/"], ["--retailer", "asda"]] {
            let run = try CommandRun.fuelboard(["ingest", "--remove", "tesco"] + mixed + ["--ingest", stack.ingestEndpoint])
            #expect(run.status == 64, "\(mixed)")
            #expect(run.stderrLines == ["fuelboard: --remove NAME takes nothing else (no FILE, DIRECTORY, URL or --retailer)"])
        }

        // A replica that starts now never sees it; the same feed again brings it back to both.
        let first = try #require(stack.lookup)
        try stack.startLookup()
        defer { _ = try? first.terminate() }
        try stack.waitForLookupVersion(asda.version + 1)
        #expect(try cheapestB7(stack)?.station.retailer == "asda")
        let back = try stack.ingestFile(try stack.writeFeed(FeedFixtures.feed(FeedFixtures.selby), name: "tesco"),
                                        retailer: "tesco")
        #expect(back.version == asda.version + 2)
        try stack.waitForLookupVersion(back.version)
        #expect(try cheapestB7(stack)?.station.retailer == "tesco")
    }

    private func cheapestB7(_ stack: DataPathStack) throws -> LookupResult? {
        let point = FeedFixtures.selbyPoint
        return try stack.lookupClient().call(.lookupCheapest,
            LookupRequest(fuel: "B7", lat: point.lat, lng: point.lng, radiusMiles: 5), as: LookupReply.self).results.first
    }

    @Test func priceIngestNotAnswering_isExitStatus69() throws {
        let cli = try ServiceProcess("fuelboard", ["ingest", "http://127.0.0.1:9/feed.json", "--retailer", "x",
                                                   "--ingest", try unservedEndpoint(), "--timeout", "300ms"])
        #expect(try cli.waitForExit(timeout: .seconds(60)) == 69, "\(cli.log)")
    }

    /// price-ingest dying mid-ingest (a crash, an OOM kill) ends the command at once with 69, and
    /// the feeds left are not sent one by one into the long ingest timeout (it waited 120 s each).
    @Test func priceIngestVanishingMidIngest_isExitStatus69AtOnce_restNotSent() throws {
        let server = try VanishingServer(service: "price-ingest")
        try withTemporaryDirectory { directory in
            for retailer in ["first", "second", "third"] {
                try Data("{}".utf8).write(to: directory.appendingPathComponent("\(retailer).json"))
            }
            let started = ContinuousClock.now
            let cli = try ServiceProcess("fuelboard", ["ingest", directory.path, "--ingest", server.endpoint,
                                                       "--timeout", "1s"])
            #expect(try cli.waitForExit(timeout: .seconds(60)) == 69, "\(cli.log)")
            #expect(ContinuousClock.now - started < .seconds(30))
            #expect(cli.log.contains("[1/3] first: FAILED the connection to"), "\(cli.log)")
            #expect(cli.log.contains("closed while waiting"), "\(cli.log)")
            #expect(cli.log.contains("the 2 feed(s) left were not sent"), "\(cli.log)")
            #expect(cli.log.contains("Ingested 0 of 3 feed(s)"), "\(cli.log)")
            #expect(cli.log.contains("; 1 feed(s) failed; 2 not sent."), "\(cli.log)")
        }
        server.waitUntilGone()
    }

    /// An older feed replaces the stored one, as asked, and the progress line says it was older.
    @Test func anOlderFeed_isStoredWithTheWarningShown() throws {
        let stack = try DataPathStack(startLookup: false)
        let newer = try stack.writeFeed(FeedFixtures.feed(FeedFixtures.selby, lastUpdated: "29/11/2026 06:30:00"),
                                        name: "newer")
        let older = try stack.writeFeed(FeedFixtures.feed(FeedFixtures.selby, lastUpdated: "20/11/2026 06:30:00"),
                                        name: "older")
        func ingest(_ file: URL) throws -> (status: Int32, log: String) {
            let cli = try ServiceProcess("fuelboard", ["ingest", file.path, "--retailer", "tesco",
                                                       "--ingest", stack.ingestEndpoint])
            let status = try cli.waitForExit(timeout: .seconds(60))
            return (status, cli.log)
        }
        #expect(try ingest(newer).status == 0)
        let replaced = try ingest(older)
        #expect(replaced.status == 0, "\(replaced.log)")
        #expect(replaced.log.contains("older_feed"), "\(replaced.log)")
    }

    /// A file that starts with a byte order mark is sent without it (it was refused "at byte 94",
    /// a place in the request, while the same file by URL was taken); a broken one is said to be
    /// broken at its own byte, before anything is sent (operator QA).
    @Test func aFileWithAByteOrderMark_isIngested_andABrokenOneIsPlacedInTheFile() throws {
        let stack = try DataPathStack(startLookup: false)
        var marked = Data([0xEF, 0xBB, 0xBF])
        marked.append(FeedFixtures.feed(FeedFixtures.selby))
        let markedFile = try stack.writeFeed(marked, name: "marked")
        let taken = try ServiceProcess("fuelboard", ["ingest", markedFile.path, "--retailer", "tesco",
                                                     "--ingest", stack.ingestEndpoint])
        #expect(try taken.waitForExit(timeout: .seconds(60)) == 0, "\(taken.log)")
        var broken = Data([0xEF, 0xBB, 0xBF])
        broken.append(Data(#"{"stations": [1, 2,]}"#.utf8))  // the "]" at byte 19, 22 with the mark
        let brokenFile = try stack.writeFeed(broken, name: "broken")
        let refused = try ServiceProcess("fuelboard", ["ingest", brokenFile.path, "--retailer", "asda",
                                                       "--ingest", stack.ingestEndpoint])
        #expect(try refused.waitForExit(timeout: .seconds(60)) == 1)
        #expect(refused.log.contains(".json is not JSON: ") && refused.log.contains("at byte 22 of the file"),
                "\(refused.log)")
    }

    @Test func aMissingFile_saysSoInOneReadableLine() throws {
        let stack = try DataPathStack(startLookup: false)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("missing-\(UUID().uuidString).json").path
        let cli = try ServiceProcess("fuelboard", ["ingest", path, "--retailer", "x", "--ingest", stack.ingestEndpoint])
        #expect(try cli.waitForExit(timeout: .seconds(60)) == 64)
        #expect(cli.log.contains("no such file or directory: \(path)"), "\(cli.log)")
        #expect(cli.log.split(separator: "\n").count == 1)
    }

    /// A directory's files are each their own retailer: `--retailer` with one would store every
    /// file as that retailer, each replacing the last; it was ignored silently.
    @Test func aDirectoryWithRetailer_isRefusedBeforeSendingAnything() throws {
        let stack = try DataPathStack(startLookup: false)
        let directory = stack.dataDirectory.appendingPathComponent("feeds")
        _ = try FeedFixtures.write(FeedFixtures.feed(FeedFixtures.selby), name: "tesco", in: directory)
        let cli = try ServiceProcess("fuelboard", ["ingest", directory.path, "--retailer", "asda",
                                                   "--ingest", stack.ingestEndpoint])
        #expect(try cli.waitForExit(timeout: .seconds(60)) == 64)
        #expect(cli.log.contains("--retailer asda names one feed's retailer"), "\(cli.log)")
        let snapshot = try stack.ingestClient().call(.ingestSnapshot, SnapshotRequest(), as: SnapshotReply.self)
        #expect(snapshot.version == 0, "nothing was sent")
    }

    /// Its help said --timeout defaulted to 5s beside "each feed waits up to 120 s" (QA).
    @Test func ingestHelp_givesTheFeedsDefaultDeadline() throws {
        let run = try CommandRun.fuelboard(["ingest", "--help"])
        #expect(run.status == 0)
        let timeout = try #require(run.stdout.split(separator: "\n").first { $0.hasPrefix("  --timeout ") })
        #expect(timeout.contains("each feed's reply (default 120s"), "\(timeout)")
        #expect(!timeout.contains("default 5s"), "\(timeout)")
    }
}
