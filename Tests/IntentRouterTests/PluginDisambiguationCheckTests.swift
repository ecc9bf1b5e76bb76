import IntentKit
import Messages
import Testing

/// The user picks an option by its title, so two options with the same title are an answer the
/// router cannot use (before, a pick silently went to the first).
struct PluginDisambiguationCheckTests {
    private static func picking(_ titles: [String]) -> IntentDefinition {
        IntentDefinition("PickStation", parameters: [PluginParameter(name: "station", type: .string)],
                         phrases: ["[ask] {app} [to] pick a station"],
                         resolve: { request in
                             guard request.string("station") == nil else { return .success() }
                             let options = titles.enumerated().map { PluginOption(value: "s\($0.offset)", title: $0.element) }
                             return .disambiguation("station", options: options, "Which one?")
                         },
                         handle: { request in .success("Picked \(request.string("station") ?? "?").") })
    }

    @Test func distinctTitles_areAsked() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        try harness.start("stations", [Self.picking(["Links Road (YO32 9AA)", "Links Road (YO32 9AB)"])])
        let question = try harness.ask("Ask FuelBoard to pick a station")
        #expect(question.code == .disambiguation, "\(question.dialog)")
    }

    @Test func titlesAlike_areAnAnswerTheRouterCannotUse() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        try harness.start("stations", [Self.picking(["Links Road", "links road"])])
        let reply = try harness.ask("Ask FuelBoard to pick a station")
        #expect(reply.code == .failure)
        #expect(reply.dialog == "Sorry, the stations service gave an answer I can't use.", "\(reply.dialog)")
    }
}
