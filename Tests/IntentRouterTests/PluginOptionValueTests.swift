import Foundation
import Messages
import Testing

/// An option's value may be a JSON number (the guide says a number parameter's options are
/// numbers); it used to be refused as "Expected to decode String".
struct PluginOptionValueTests {
    private static func option(_ value: String) throws -> PluginOption {
        try JSONCoding.decode(PluginOption.self, from: Data(#"{"value":\#(value),"title":"Ten miles"}"#.utf8))
    }

    @Test(arguments: [("10", "10"), ("2.5", "2.5"), ("-3", "-3"), (#""tesco-1""#, "tesco-1"), ("1e3", "1000")])
    func aNumberOrAString_isAValue(json: String, value: String) throws {
        #expect(try Self.option(json).value == value)
    }

    @Test(arguments: ["true", "null", "[10]"])
    func anythingElse_isRefusedSayingWhatIsAllowed(json: String) {
        #expect {
            try Self.option(json)
        } throws: { error in
            "\(error)".contains("a string or a number") || "\(error)".contains("valueNotFound")
        }
    }

    /// A raw plug-in offers radii as JSON numbers; the pick reaches handle as a number.
    @Test func numberOptions_onTheWire_areAsked_andThePickIsANumber() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        let intent = #"{"name":"PickRadius","parameters":[{"name":"radius","type":"number"}],"#
            + #""phrases":["[ask] {app} [to] pick a radius"],"stages":["resolve","handle"]}"#
        let peer = PluginRawPeer(endpoint: harness.plugins,
                                 register: PluginRawPeer.register(service: "radii", instance: "r1",
                                                                  intents: [intent])) { request in
            guard request.stage == .handle || request.parameters["radius"] != nil else {
                return PluginRawPeer.reply(request.id, #""result":"disambiguation","parameter":"radius","#
                    + #""dialog":"5 or 10 miles?","options":[{"value":5,"title":"Five miles"},"#
                    + #"{"value":10,"title":"Ten miles"}]"#)
            }
            let radius = request.parameters["radius"].map { "\($0)" } ?? "none"
            return PluginRawPeer.reply(request.id, #""result":"success","dialog":"\#(radius)""#)
        }
        defer { peer.stop() }
        #expect(peer.isRegistered)
        let question = try harness.ask("Ask FuelBoard to pick a radius")
        #expect(question.code == .disambiguation, "\(question.dialog)")
        #expect(question.options?.map(\.value) == ["5", "10"])
        let answer = try harness.ask("the second one", session: question.session)
        #expect(answer.dialog == "number(10.0)", "\(answer.dialog)")
    }

    /// Option titles are shown and said: cleaned as a dialog is, at most 200 characters (a QA
    /// pass's 100 KB title with escapes went through whole).
    @Test func optionTitles_areCleanedAndKeptShort() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        let intent = #"{"name":"PickOne","parameters":[{"name":"which","type":"string"}],"#
            + #""phrases":["[ask] {app} [to] pick one"],"stages":["resolve","handle"]}"#
        let long = String(repeating: "x", count: 5_000)
        let peer = PluginRawPeer(endpoint: harness.plugins,
                                 register: PluginRawPeer.register(service: "picks", instance: "p1",
                                                                  intents: [intent])) { request in
            PluginRawPeer.reply(request.id, #""result":"disambiguation","parameter":"which","dialog":"Which?","#
                + #""options":[{"value":"a","title":"Red\u001b[31m\u0007 one"},{"value":"b","title":"\#(long)"}]"#)
        }
        defer { peer.stop() }
        #expect(peer.isRegistered)
        let question = try harness.ask("Ask FuelBoard to pick one")
        let titles = try #require(question.options).map(\.title)
        #expect(titles.first == "Red one", "\(titles.first ?? "")")
        #expect(titles.last?.count == 200, "\(titles.last?.count ?? 0)")
    }
}
