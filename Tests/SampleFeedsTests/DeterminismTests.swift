import Foundation
import Testing
import SampleFeeds

struct DeterminismTests {
    private func bytes(_ options: SampleFeedOptions) throws -> [Data] {
        try SampleFeedGenerator(options: options).feeds().map(\.json)
    }

    @Test func feeds_whenSameSeedAndOptions_areByteIdentical() throws {
        let options = SampleFeedOptions.demo(stations: 2_000, seed: 11)
        #expect(try bytes(options) == bytes(options))
    }

    @Test func feeds_whenDifferentSeed_differ() throws {
        let first = try bytes(.demo(stations: 2_000, seed: 11))
        let second = try bytes(.demo(stations: 2_000, seed: 12))
        #expect(first.count == second.count)
        #expect(zip(first, second).allSatisfy { $0 != $1 })
    }

    @Test func feeds_whenGeneratedTwiceInParallel_matchTheSequentialBytes() async throws {
        let generator = try SampleFeedGenerator(options: .demo(stations: 1_500, seed: 4))
        let sequential = generator.feeds().map(\.json)
        let parallel = await withTaskGroup(of: (Int, Data).self) { group in
            for index in 0..<generator.feedCount {
                group.addTask { (index, generator.feed(at: index).json) }
            }
            var results = [Data](repeating: Data(), count: generator.feedCount)
            for await (index, data) in group { results[index] = data }
            return results
        }
        #expect(parallel == sequential)
    }

    @Test func write_whenToDirectory_writesTheSameBytesAsFeeds() throws {
        let generator = try SampleFeedGenerator(options: .demo(stations: 1_200, seed: 8))
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("samplefeeds-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var reports: [(Int, Int)] = []
        let urls = try generator.write(to: directory) { reports.append(($0, $1)) }
        let feeds = generator.feeds()
        #expect(urls.map(\.lastPathComponent) == feeds.map { "\($0.retailer).json" })
        for (url, feed) in zip(urls, feeds) {
            #expect(try Data(contentsOf: url) == feed.json)
        }
        #expect(reports.last.map { $0.0 == 1_200 && $0.1 == 1_200 } == true)
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.0 < $1.0 })
    }

    @Test func write_whenDirectoryIsAFile_throwsWriteFailed() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("samplefeeds-\(UUID().uuidString)")
        try Data("x".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let generator = try SampleFeedGenerator(options: .demo(stations: 50))
        #expect(throws: SampleFeedError.self) { try generator.write(to: file) }
    }

    @Test func init_whenOptionsOutOfRange_throwsInvalidOptions() {
        #expect(throws: SampleFeedError.self) { try SampleFeedGenerator(options: .init(stations: -1)) }
        #expect(throws: SampleFeedError.self) { try SampleFeedGenerator(options: .init(quirkRate: 1.5)) }
        #expect(throws: SampleFeedError.self) { try SampleFeedGenerator(options: .init(quirkRate: .nan)) }
        #expect(throws: SampleFeedError.self) { try SampleFeedGenerator(options: .init(maxStationsPerFeed: 0)) }
        #expect(throws: SampleFeedError.self) {
            try SampleFeedGenerator(options: .init(asOf: Date(timeIntervalSince1970: .infinity)))
        }
    }
}
