import Foundation
import PriceIngest
import TestSupport
import Testing

/// A `file://` feed is read from this machine only, and only from a regular file: a URL naming
/// another host was read from the local path (`file://elsewhere/etc/x` read `/etc/x`), and
/// `/dev/zero` was read until the read failed ("Permission denied"), memory climbing meanwhile.
struct FileFeedURLTests {
    @Test func aFileURLNamingAnotherHost_isRefusedBeforeAnyRead() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("feed.json")
            try Data(#"{"stations":[]}"#.utf8).write(to: file)
            let elsewhere = "file://feeds.example.com\(file.path)"
            let problem = try #require(FeedFetcher.problem(with: elsewhere))
            #expect(problem.contains("another machine") && problem.contains("feeds.example.com"), "\(problem)")
            let error = try #require(throws: FeedFetcher.Failure.self) { try FeedFetcher().fetch(elsewhere) }
            #expect(error.code == .badRequest)
            #expect(error.description.contains("another machine"), "\(error)")
        }
    }

    @Test func aFileURLOnThisMachine_isRead_withOrWithoutLocalhost() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("feed.json")
            let body = Data(#"{"stations":[]}"#.utf8)
            try body.write(to: file)
            for url in ["file://\(file.path)", "file://localhost\(file.path)", "file://LOCALHOST\(file.path)"] {
                #expect(FeedFetcher.problem(with: url) == nil, "\(url)")
                #expect(try FeedFetcher().fetch(url) == body, "\(url)")
            }
        }
    }

    @Test func aFileThatIsNotARegularFile_isRefusedWithoutReadingIt() throws {
        try withTemporaryDirectory { directory in
            for path in ["/dev/zero", directory.path] {
                let error = try #require(throws: FeedFetcher.Failure.self) { try FeedFetcher().fetch("file://\(path)") }
                #expect(error.code == .badRequest)
                #expect(error.description.contains("is not a regular file"), "\(path): \(error)")
            }
        }
    }
}
