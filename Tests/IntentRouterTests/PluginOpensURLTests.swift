@testable import IntentRouter
import IntentKit
import Messages
import Testing

/// A plug-in's `opensURL` is a link a client opens: only web pages pass.
struct PluginOpensURLTests {
    private static func linking(_ url: String) -> IntentDefinition {
        IntentDefinition("OpenMap", phrases: ["[ask] {app} [to] open the map"]) { _ in
            .success("Here is the map.", opensURL: url)
        }
    }

    @Test func aWebLink_reachesTheUser() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        try harness.start("maps", [Self.linking("https://maps.example.org/?q=Selby")])
        let reply = try harness.ask("Ask FuelBoard to open the map")
        #expect(reply.code == .success)
        #expect(reply.opensURL == "https://maps.example.org/?q=Selby")
    }

    @Test(arguments: ["javascript:alert(1)", "file:///etc/passwd", "maps.example.org", "https://", "ftp://example.org/x"])
    func anythingElse_isAnAnswerTheRouterCannotUse(url: String) throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        try harness.start("maps", [Self.linking(url)])
        let reply = try harness.ask("Ask FuelBoard to open the map")
        #expect(reply.code == .failure)
        #expect(reply.opensURL == nil)
        #expect(reply.dialog == "Sorry, the maps service gave an answer I can't use.", "\(reply.dialog)")
    }

    @Test func webURLs_areHttpOrHttpsWithAHost() {
        #expect(PluginDialogue.isWebURL("https://www.google.com/maps/dir/?api=1&destination=53.78,-1.07"))
        #expect(PluginDialogue.isWebURL("HTTP://example.org"))
        #expect(!PluginDialogue.isWebURL("javascript:alert(1)"))
        #expect(!PluginDialogue.isWebURL("//example.org/x"))
    }

    /// Credentials, spaces, control characters and links past 2048 characters are refused (a QA
    /// pass's link "https://user:pass@evil.example/\u{0}\r\nX: y" was taken).
    @Test(arguments: ["https://user:pass@evil.example/", "https://user@example.org/", "https://example.org/\u{0}",
                      "https://example.org/a\r\nX: y", "https://example.org/a b", "https://example.org/\u{85}",
                      "https://example.org/" + String(repeating: "a", count: 2030)])
    func webURLs_withCredentialsSpacesControlsOrPast2048_areRefused(url: String) {
        #expect(!PluginDialogue.isWebURL(url))
    }
}
