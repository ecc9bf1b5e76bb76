@testable import PriceIngest
import Testing

/// A feed URL's credentials and query never reach the status, stats or log.
struct SourceTextTests {
    @Test(arguments: [
        ("https://user:secret@feeds.example.com/prices.json?token=abc", "https://feeds.example.com/prices.json?…"),
        ("https://feeds.example.com/prices.json", "https://feeds.example.com/prices.json"),
        ("file:///srv/feeds/asda.json", "file:///srv/feeds/asda.json"),
        ("http://127.0.0.1:8080/asda.json?key=1&x=2", "http://127.0.0.1:8080/asda.json?…"),
    ])
    func shown_dropsUserPasswordAndQuery(url: String, shown: String) {
        #expect(SourceText.shown(url) == shown)
    }
}
