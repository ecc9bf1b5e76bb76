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

    /// A symlink to a regular file is read: the usual `current.json` -> dated file, and every file
    /// of a Kubernetes ConfigMap (review: it was refused as "not a regular file").
    @Test func aSymlinkToAFeed_isReadAsTheFile_andAMissingFileIsNotFound() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("2026-12-01.json")
            let body = Data(#"{"last_updated":"01/12/2026 06:30:00","stations":[]}"#.utf8)
            try body.write(to: file)
            let link = directory.appendingPathComponent("current.json")
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)
            #expect(try FeedFetcher().fetch("file://\(link.path)") == body)
            var small = FeedFetcher()
            small.maxBytes = body.count - 1
            let tooLarge = try #require(throws: FeedFetcher.Failure.self) { try small.fetch("file://\(link.path)") }
            #expect(tooLarge.code == .tooLarge, "the size is the file's, not the link's: \(tooLarge)")
            let missing = directory.appendingPathComponent("gone.json").path
            let error = try #require(throws: FeedFetcher.Failure.self) { try FeedFetcher().fetch("file://\(missing)") }
            #expect(error.code == .notFound && error.description.contains("No such file"), "\(error)")
        }
    }

    @Test func aFileThatIsNotARegularFile_isRefusedWithoutReadingIt() throws {
        try withTemporaryDirectory { directory in
            let fifo = directory.appendingPathComponent("fifo").path
            #expect(mkfifo(fifo, 0o600) == 0)
            for path in ["/dev/zero", directory.path, fifo] {
                let error = try #require(throws: FeedFetcher.Failure.self) { try FeedFetcher().fetch("file://\(path)") }
                #expect(error.code == .badRequest)
                #expect(error.description.contains("is not a regular file"), "\(path): \(error)")
            }
        }
    }
}
