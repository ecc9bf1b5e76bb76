import PriceIngest
import Testing

/// The `--feeds` list is checked when read: a line price-ingest could never poll is a
/// configuration error (exit 64), not a feed failing at every poll (QA).
struct FeedListTests {
    @Test func aGoodList_isRead_withCommentsAndBlankLinesSkipped() throws {
        let list = try FeedList(text: """
            # retailer   url
            asda   https://storelocator.asda.com/fuel_prices_data.json

            Shell  HTTP://example.test/shell.json   # a comment
            jet\tfile:///srv/feeds/jet.json\r
            """)
        #expect(list.entries.map(\.retailer) == ["asda", "Shell", "jet"])
        #expect(list.entries.map(\.url).last == "file:///srv/feeds/jet.json")
    }

    @Test(arguments: [
        ("x ftp://foo/bar", "feeds list line 1: unsupported URL scheme 'ftp' (use http, https or file)"),
        ("asda https://a/b\nASDA https://a/c", "feeds list line 2: retailer 'asda' is listed on line 1 too"),
        ("tesco", "feeds list line 1: expected 'RETAILER URL', got 'tesco'"),
        ("tesco https://a/b extra", "feeds list line 1: expected 'RETAILER URL'"),
        ("t€sco https://a/b", "feeds list line 1: the retailer name \"t€sco\" must give a slug"),
    ])
    func aLineThatCouldNeverBePolled_isRefusedNamingItsLine(text: String, message: String) {
        do {
            _ = try FeedList(text: text)
            Issue.record("taken: \(text)")
        } catch {
            #expect("\(error)".hasPrefix(message), "\(error)")
        }
    }

    /// A URL ingest.feed would refuse is refused when the list is read (it passed --check-config
    /// and failed at every poll).
    @Test(arguments: ["jet http://[::1", "jet file://otherhost/x.json", "jet https:///no-host"])
    func aURLTheFetcherWouldRefuse_isRefusedWhenTheListIsRead(line: String) {
        #expect(throws: FeedListError.self) { try FeedList(text: line + "\n") }
    }
}
