import Foundation
import PriceIngest
import TestSupport
import Testing

/// `--file-root`: without it any client of the bus could ask price-ingest to read any path, and
/// "no such file" against "not valid JSON" told it what exists there. Under a root, a path outside
/// is refused with one sentence whether or not it exists, by its words and by what it names.
struct FileFeedRootTests {
    private let feed = TestFeeds.document(lastUpdated: "30/11/2025 11:00:00", sites: TestFeeds.selby(diesel: 139.9))

    /// Two sibling directories: `feeds` (the root) and `private`, each with a feed.
    private func withRootAndOutside(_ body: (_ root: URL, _ outside: URL) throws -> Void) throws {
        try withTemporaryDirectory { directory in
            let root = directory.appendingPathComponent("feeds")
            let outside = directory.appendingPathComponent("private")
            for folder in [root, outside] {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                try feed.write(to: folder.appendingPathComponent("asda.json"))
            }
            try body(root, outside)
        }
    }

    @Test func aPathUnderTheRoot_isRead_andOneMissingThereIsNotFound() throws {
        try withRootAndOutside { root, _ in
            var fetcher = FeedFetcher()
            fetcher.fileRoot = try FileFeedRoot(directory: root.path)
            #expect(try fetcher.fetch("file://\(root.path)/asda.json") == feed)
            let missing = try #require(throws: FeedFetcher.Failure.self) { try fetcher.fetch("file://\(root.path)/gone.json") }
            #expect(missing.code == .notFound, "\(missing)")
        }
    }

    @Test func pathsOutsideTheRoot_areRefusedAlike_whetherOrNotTheyExist() throws {
        try withRootAndOutside { root, outside in
            var fetcher = FeedFetcher()
            fetcher.fileRoot = try FileFeedRoot(directory: root.path)
            let link = root.appendingPathComponent("sneaky.json")
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: outside.appendingPathComponent("asda.json"))
            let urls = ["file://\(outside.path)/asda.json", "file://\(outside.path)/gone.json",
                        "file://\(root.path)/../private/asda.json", "file://\(root.path)/../private/gone.json",
                        "file://\(link.path)", "file:///etc/passwd", "file://\(root.path)-x/asda.json"]
            let refusals = try urls.map { url in
                try #require(throws: FeedFetcher.Failure.self, "\(url)") { try fetcher.fetch(url) }
            }
            #expect(refusals.allSatisfy { $0.code == .badRequest }, "\(refusals)")
            #expect(Set(refusals.map(\.description)) == ["file:// feeds are read only under \(root.path) here (--file-root)"],
                    "\(refusals)")
        }
    }

    /// Symlinks within the root are read, as a Kubernetes ConfigMap's files are (`asda.json` ->
    /// `..data/asda.json`), and a root given through a symlink is the directory it names.
    @Test func symlinksWithinTheRoot_andARootGivenByASymlink_areFollowed() throws {
        try withRootAndOutside { root, _ in
            let data = root.appendingPathComponent("..data")
            try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
            try feed.write(to: data.appendingPathComponent("tesco.json"))
            try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("tesco.json"),
                                                       withDestinationURL: data.appendingPathComponent("tesco.json"))
            let rootLink = root.deletingLastPathComponent().appendingPathComponent("current")
            try FileManager.default.createSymbolicLink(at: rootLink, withDestinationURL: root)
            var fetcher = FeedFetcher()
            fetcher.fileRoot = try FileFeedRoot(directory: rootLink.path)
            #expect(try fetcher.fetch("file://\(root.path)/tesco.json") == feed)
            #expect(try fetcher.fetch("file://\(rootLink.path)/tesco.json") == feed)
        }
    }

    /// What was opened is checked too, not only the path before it: a symlink swapped in between
    /// the two (a QA pass's race read a file outside 434 times in 8 s) is refused by the descriptor.
    @Test func theFileOpened_isCheckedByItsDescriptor_whateverPathLedToIt() throws {
        try withRootAndOutside { root, outside in
            let fileRoot = try FileFeedRoot(directory: root.path)
            let link = root.appendingPathComponent("race.json")
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: outside.appendingPathComponent("asda.json"))
            for (path, inside) in [(link.path, false), (root.appendingPathComponent("asda.json").path, true)] {
                let descriptor = open(path, O_RDONLY)
                #expect(descriptor >= 0)
                defer { close(descriptor) }
                #expect((fileRoot.refusal(ofOpened: descriptor) == nil) == inside, "\(path)")
            }
        }
    }

    @Test func aRootThatIsMissingOrAFile_isRefused() throws {
        try withRootAndOutside { root, _ in
            let missing = try #require(throws: FileFeedRootError.self) { try FileFeedRoot(directory: root.path + "/nope") }
            #expect(missing.description.contains("No such file"), "\(missing)")
            let file = try #require(throws: FileFeedRootError.self) { try FileFeedRoot(directory: root.path + "/asda.json") }
            #expect(file.description.contains("is not a directory"), "\(file)")
        }
    }

    /// Through the service: an `ingest.feed` from a client gets the refusal, stores nothing, and a
    /// feed under the root is taken.
    @Test func theService_refusesAnOutsideURL_andTakesOneUnderTheRoot() throws {
        try withRootAndOutside { root, outside in
            let store = root.deletingLastPathComponent().appendingPathComponent("store")
            try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
            try IngestHarness.with(directory: store, fileRoot: try FileFeedRoot(directory: root.path)) { harness in
                let refused = try harness.ingest(url: outside.appendingPathComponent("asda.json"), retailer: "asda")
                #expect(refused.error?.code == .badRequest && refused.error?.message.contains("--file-root") == true,
                        "\(String(describing: refused.error))")
                #expect(try harness.status().isEmpty)
                let taken = try harness.ingest(url: root.appendingPathComponent("asda.json"), retailer: "asda")
                #expect(taken.body?.accepted == 3, "\(String(describing: taken.error))")
            }
        }
    }
}
