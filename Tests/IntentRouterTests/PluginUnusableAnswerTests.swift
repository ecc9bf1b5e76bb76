import Foundation
import IntentKit
import Messages
import Testing

/// An answer the router can read but not use fails the ask with "gave an answer I can't use", and
/// the instance is sent `plugin.refused` `bad_request` naming the request and the fault (the reason
/// used to be in the router's log only).
struct PluginUnusableAnswerTests {
    static let intent = #"{"name":"Pick","parameters":[{"name":"fuel","type":"enum","values":[{"value":"B7"}]},"#
        + #"{"name":"miles","type":"number"}],"phrases":["[ask] {app} [to] pick something"],"stages":["handle"]}"#

    static let options21 = (1...21).map { #"{"value":"B7","title":"Option \#($0)"}"# }.joined(separator: ",")

    @Test(arguments: [
        (#""result":"success","dialog":"Map.","opensURL":"javascript:alert(1)""#, "opensURL must be an http"),
        (#""result":"needsValue","dialog":"Which?","parameter":"colour""#,
         #"needsValue names "colour", not a declared parameter (declared: fuel, miles)"#),
        // "param" for "parameter": said as missing, with what may be named (it said "(none)", QA).
        (#""result":"needsValue","dialog":"Which?","param":"fuel""#,
         #"needsValue has no "parameter" member naming the parameter to ask for (declared: fuel, miles)"#),
        (#""result":"disambiguation","dialog":"Which?","options":[{"value":"B7","title":"A"}]"#,
         #"disambiguation has no "parameter" member"#),
        (#""result":"disambiguation","dialog":"Which?","parameter":"fuel","options":[]"#, "1 to 20 options, not 0"),
        (#""result":"disambiguation","dialog":"Which?","parameter":"fuel","options":[\#(options21)]"#,
         "1 to 20 options, not 21"),
        (#""result":"disambiguation","dialog":"Which?","parameter":"fuel","options":[{"value":"B7","title":"A"},"#
            + #"{"value":"B7","title":"a"}]"#, "distinct titles"),
        (#""result":"disambiguation","dialog":"Which?","parameter":"fuel","options":[{"value":"E85","title":"A"}]"#,
         #"option value "E85" does not fit: Pick: fuel must be one of B7"#),
        (#""result":"success","dialog":"Done.","parameters":{"miles":"far"}"#, "Pick: miles must be a number of 0 or more"),
        (#""result":"success","dialog":"Here.","snippet":{"title":"A","lat":1e308,"lng":-1.5}"#,
         "snippet lat and lng must come together"),
        (#""result":"success","dialog":"Here.","snippet":{"title":"A","lat":53.1}"#,
         "snippet lat and lng must come together"),
        (#""result":"failure","dialog":"No.","snippet":{"title":"A","lat":53.1,"lng":200}"#,
         "lng from -180 to 180"),
        (#""result":"success","dialog":"Cheap.","snippet":{"title":"A","pricePence":-5}"#,
         "snippet pricePence must be from 0 to 100000"),
        (#""result":"inProgress","dialog":"Soon.","snippet":{"title":"A","pricePence":1e9}"#,
         "snippet pricePence must be from 0 to 100000"),
    ])
    func anUnusableAnswer_failsTheAsk_andIsRefusedNamingTheRequestAndTheFault(fields: String, fault: String) throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        let peer = PluginRawPeer.answering(fields, at: harness.plugins, service: "picker", instance: "p1",
                                           intent: Self.intent)
        defer { peer.stop() }
        #expect(peer.isRegistered)
        let reply = try harness.ask("Ask FuelBoard to pick something")
        #expect(reply.code == .failure)
        #expect(reply.dialog == "Sorry, the picker service gave an answer I can't use.", "\(reply.dialog)")
        let request = try #require(peer.frame { $0.contains("plugin.request") })
        let id = try JSONCoding.decode(PluginRequest.self, from: Data(request.utf8)).id
        let refusal = try #require(peer.refusal(), "the peer was not told")
        #expect(refusal.code == "bad_request" && refusal.id == id && !refusal.reregister, "\(refusal)")
        #expect(refusal.reason.hasPrefix("plugin.reply \(id) cannot be used: "), "\(refusal.reason)")
        #expect(refusal.reason.contains(fault), "\(refusal.reason)")
    }

    /// The kit logs a refused reply and goes on serving: only a refused registration stops it.
    @Test func aKitServiceWhoseReplyIsRefused_keepsServing() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        let maps = IntentDefinition("OpenMap", phrases: ["[ask] {app} [to] open the map"]) { _ in
            .success("Here is the map.", opensURL: "file:///etc/passwd")
        }
        let service = try harness.start("maps", [maps, TestIntents.fuelFact()])
        #expect(try harness.ask("Ask FuelBoard to open the map").code == .failure)
        #expect(service.wait { $0.refusedReplies == 1 })
        #expect(service.status.refusal == nil && service.status.running)
        #expect(try harness.ask("Ask FuelBoard to tell me about diesel").dialog == "B7 is a fuel.")
    }

    /// A reply's parameters are checked as a run's are: free words for a `string` that lists values
    /// (its echo of a run's "purple" was refused), a synonym as its value.
    @Test(arguments: [("purple", "purple"), ("crimson", "red")])
    func aReplysStringParameter_takesFreeWords_andASynonymAsItsValue(given: String, kept: String) throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        let intent = #"{"name":"Paint","parameters":[{"name":"c","type":"string","values":[{"value":"red","#
            + #""synonyms":["crimson"]},{"value":"blue"}]}],"phrases":["[ask] {app} [to] paint it"],"stages":["handle"]}"#
        let peer = PluginRawPeer.answering(#""result":"success","dialog":"Painted.","parameters":{"c":"\#(given)"}"#,
                                           at: harness.plugins, service: "paint", instance: "p1", intent: intent)
        defer { peer.stop() }
        #expect(peer.isRegistered)
        let reply = try harness.ask("Ask FuelBoard to paint it")
        #expect(reply.code == .success && reply.dialog == "Painted.", "\(reply.dialog)")
        #expect(reply.parameters?["c"] == .string(kept))
        #expect(peer.refusal(timeout: .milliseconds(200)) == nil)
    }
}
