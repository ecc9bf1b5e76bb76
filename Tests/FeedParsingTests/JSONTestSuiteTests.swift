import Foundation
import Testing
import FeedParsing
import TestSupport

/// Every JSONTestSuite document, fed as a feed, gives a `FeedError` or a parsed result: never a crash.
@Suite(.enabled(if: SharedData.isPresent, Comment(rawValue: SharedData.absentMessage)))
struct JSONTestSuiteTests {
    private static let directory = SharedData.directory.appendingPathComponent("jsontestsuite/test_parsing")

    private static func files(prefix: String) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.sorted()
            .map { directory.appendingPathComponent($0) }
    }

    /// Parses each file; returns how many were refused and how many parsed.
    private func feedAll(_ files: [URL]) throws -> (refused: Int, parsed: Int) {
        var refused = 0, parsed = 0
        for file in files {
            do {
                _ = try FeedParser().parse(try Data(contentsOf: file), retailer: "suite", fetchedAt: Date())
                parsed += 1
            } catch {
                refused += 1
            }
        }
        return (refused, parsed)
    }

    @Test func mustRejectDocuments_areAllRefused() throws {
        let files = Self.files(prefix: "n_")
        #expect(files.count == 188)
        let result = try feedAll(files)
        // None of them is a JSON object with a stations list, so every one is refused as a whole.
        #expect(result.refused == files.count)
    }

    @Test func implementationDefinedDocuments_neverCrash() throws {
        let files = Self.files(prefix: "i_")
        #expect(files.count == 35)
        let result = try feedAll(files)
        // Whether or not the JSON is accepted, none is an object with a "stations" list.
        #expect(result.refused == files.count)
        #expect(result.parsed == 0)
    }

    @Test func validDocuments_areRefusedAsFeedsButNeverCrash() throws {
        let files = Self.files(prefix: "y_")
        #expect(files.count == 95)
        let result = try feedAll(files)
        // Valid JSON, but none is an object holding a "stations" list.
        #expect(result.refused == files.count)
    }

    @Test func suiteDocuments_insideAStationsList_areRefusedRecordByRecord() throws {
        // Wrap every valid document as a station record: the feed parses, non-objects are refused one by one.
        var records: [String] = []
        for file in Self.files(prefix: "y_") {
            guard let text = String(data: try Data(contentsOf: file), encoding: .utf8) else { continue }
            records.append(text)
        }
        let json = "{\"last_updated\": \"09/10/2025 11:00:00\", \"stations\": [" + records.joined(separator: ",") + "]}"
        let feed = try FeedParser().parse(Data(json.utf8), retailer: "suite", fetchedAt: Date())
        #expect(feed.acceptedCount + feed.refusedCount == records.count)
        #expect(feed.count(RecordRefusal.notAnObject) > 0)
    }
}
