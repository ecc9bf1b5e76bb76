import FeedParsing
import Foundation
import PriceIngest
import TestSupport
import Testing

/// One limit for a feed however it comes: a fetch stopped at 64 MiB while the parser refused
/// anything past 32 MiB, so a 40 MiB feed was fetched whole only to be refused.
struct FeedLimitTests {
    @Test func aFetch_isRefusedAtTheParsersLimit() throws {
        #expect(FeedFetcher().maxBytes == FeedParser().maxBytes)
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("big.json")
            #expect(FileManager.default.createFile(atPath: file.path, contents: Data()))
            let handle = try FileHandle(forWritingTo: file)
            try handle.truncate(atOffset: UInt64(FeedParser.maxFeedBytes + 1))  // sparse: no 32 MiB written
            try handle.close()
            let error = try #require(throws: FeedFetcher.Failure.self) { try FeedFetcher().fetch(file.absoluteString) }
            #expect(error.code == .tooLarge)
            #expect(error.description.contains("over the \(FeedParser.maxFeedBytes)-byte limit"), "\(error)")
        }
    }
}
