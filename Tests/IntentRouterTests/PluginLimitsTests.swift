import Foundation
import IntentKit
import Messages
import Testing

/// Limits the guide states, as the router applies them: a dialog is cut to 2000 characters, and a
/// snippet keeps only its known fields, each of its own type.
struct PluginLimitsTests {
    static let intent = #"{"name":"Say","phrases":["[ask] {app} [to] say something"],"stages":["handle"]}"#

    private static func answer(_ fields: String) throws -> AssistantReply {
        let harness = try PluginHarness()
        defer { harness.stop() }
        let peer = PluginRawPeer.answering(fields, at: harness.plugins, service: "sayer", instance: "s1",
                                           intent: Self.intent)
        defer { peer.stop() }
        guard peer.isRegistered else { throw PluginTestError("sayer did not register") }
        return try harness.ask("Ask FuelBoard to say something")
    }

    @Test func aLongDialog_isCutTo2000Characters() throws {
        let reply = try Self.answer(#""result":"success","dialog":"\#(String(repeating: "é", count: 2500))""#)
        #expect(reply.code == .success)
        #expect(reply.dialog.count == 2000)
    }

    @Test func aSnippet_keepsItsKnownFields_andDropsTheRest() throws {
        let reply = try Self.answer(#""result":"success","dialog":"Here.","snippet":{"title":"Tesco Selby","#
            + #""price":"£1.399","lat":53.78,"lng":-1.06,"colour":"red","rating":5}"#)
        #expect(reply.snippet == Snippet(title: "Tesco Selby", price: "£1.399", lat: 53.78, lng: -1.06))
    }

    @Test func aSnippetPriceThatIsANumber_makesTheReplyUnreadable() throws {
        let reply = try Self.answer(#""result":"success","dialog":"Here.","snippet":{"title":"Tesco","price":1.399}"#)
        #expect(reply.dialog == "Sorry, the sayer service gave an answer I can't use.", "\(reply.dialog)")
    }
}
