@testable import IntentRouter
import Foundation
import Messages
import Testing

/// Every frame a service sends carries `"v": 1`. A frame whose `"v"` is anything else is refused
/// with `bad_request` saying so (it used to get silence when `"v"` was not a number), and a reply
/// with a bad `"v"` fails its ask at once instead of leaving the user waiting for the deadline.
struct PluginWireVersionTests {
    static let jokes = #"{"name":"Jokes","phrases":["[ask] {app} [to] tell me a joke"],"stages":["handle"]}"#

    @Test(arguments: [#""1""#, "true", "null", "[1]", "2"])
    func aRegisterWithAVersionThatIsNotTheNumber1_isRefusedSayingVMustBe1(version: String) throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        let register = PluginRawPeer.register(service: "jokes", instance: "j1", intents: [Self.jokes], v: version)
        let peer = PluginRawPeer(endpoint: harness.plugins, register: register)
        defer { peer.stop() }
        let refusal = try #require(peer.refusal(), "no answer to a register with \"v\":\(version)")
        #expect(refusal.code == "bad_request")
        #expect(refusal.reason.contains(#""v" must be 1"#), "\(refusal.reason)")
        #expect(refusal.reason.hasPrefix("plugin.register:"), "\(refusal.reason)")
        #expect(try harness.listing().isEmpty)
    }

    @Test func aRegisterWithoutAVersion_isRefusedTheSameWay() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        let frame = #"{"type":"plugin.register","service":"jokes","instance":"j1","intents":[\#(Self.jokes)]}"#
        let peer = PluginRawPeer(endpoint: harness.plugins, register: frame)
        defer { peer.stop() }
        let refusal = try #require(peer.refusal())
        #expect(refusal.code == "bad_request" && refusal.reason.contains(#""v" must be 1 (it is missing)"#),
                "\(refusal.reason)")
    }

    @Test func aHeartbeatWithAStringVersion_isRefused() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        let peer = PluginRawPeer(endpoint: harness.plugins, register: #"{"v":"1","type":"plugin.heartbeat"}"#)
        defer { peer.stop() }
        let refusal = try #require(peer.refusal())
        #expect(refusal.code == "bad_request" && refusal.reason.contains(#"plugin.heartbeat: "v" must be"#),
                "\(refusal.reason)")
    }

    /// A reply with `"v"` other than the number 1 names a request in flight: the ask fails at once
    /// with "gave an answer I can't use", and the peer is told which reply and why.
    @Test(arguments: [#""1""#, "true", "2"])
    func aReplyWithABadVersion_failsItsAskAtOnce_andIsRefusedNamingTheRequest(version: String) throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        let peer = PluginRawPeer(endpoint: harness.plugins,
                                 register: PluginRawPeer.register(service: "jokes", instance: "j1",
                                                                  intents: [Self.jokes])) { request in
            PluginRawPeer.reply(request.id, #""result":"success","dialog":"Knock knock.""#, v: version)
        }
        defer { peer.stop() }
        #expect(peer.isRegistered)
        let start = ContinuousClock.now
        let reply = try harness.ask("Ask FuelBoard to tell me a joke")
        let took = ContinuousClock.now - start
        #expect(reply.code == .failure)
        #expect(reply.dialog == "Sorry, the jokes service gave an answer I can't use.", "\(reply.dialog)")
        #expect(took < harness.deadline, "answered after \(took), the deadline is \(harness.deadline)")
        let refusal = try #require(peer.refusal())
        let request = try #require(peer.frame { $0.contains("plugin.request") })
        let id = try JSONCoding.decode(PluginRequest.self, from: Data(request.utf8)).id
        #expect(refusal.code == "bad_request" && refusal.id == id, "\(refusal)")
        #expect(refusal.reason.contains("plugin.reply \(id)") && refusal.reason.contains(#""v" must be 1"#),
                "\(refusal.reason)")
    }

    @Test func versionFaults_sayWhatVWas() {
        #expect(PluginBroker.versionFault(nil) == #""v" must be 1 (it is missing)"#)
        #expect(PluginBroker.versionFault(.string("1")) == #""v" must be 1, the number, not "1""#)
        #expect(PluginBroker.versionFault(.number(2))
            == #""v" must be 1: protocol version 2 is not spoken here (this router speaks 1)"#)
    }
}

/// `plugin.bye` takes out the sender's own instance, and only when it names that one (or none): a
/// bye naming another instance removed the sender, which then heartbeat into "register again" (QA).
struct PluginByeTests {
    @Test func aByeNamingAnotherInstance_isIgnored_andTheSendersOwnBye_removesIt() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        let peer = PluginRawPeer(endpoint: harness.plugins, register: PluginRawPeer.register(
            service: "jokes", instance: "j1", intents: [PluginWireVersionTests.jokes]))
        defer { peer.stop() }
        #expect(peer.isRegistered)
        peer.send(#"{"v":1,"type":"plugin.bye","instance":"someone-else"}"#)
        // Were the bye taken, this heartbeat would come from an instance the router no longer knows.
        peer.send(#"{"v":1,"type":"plugin.heartbeat"}"#)
        #expect(peer.refusal(timeout: .milliseconds(1500)) == nil, "the sender was removed")
        #expect(try harness.listing().first?.instances.map(\.instance) == ["j1"])
        peer.send(#"{"v":1,"type":"plugin.bye","instance":"j1"}"#)
        #expect(try harness.waitForListing { $0.allSatisfy { $0.instances.isEmpty } })
    }
}

/// A frame the router cannot take as a plug-in message is refused saying why: a misspelt type met
/// silence, and the ask waiting on it its deadline (plug-in QA).
struct PluginUnknownFrameTests {
    @Test(arguments: [(#"{"v":1,"type":"plugin.heartbeet"}"#, #""plugin.heartbeet" is not a plug-in message type"#),
                      (#"{"v":1,"instance":"x"}"#, #"the frame has no "type""#),
                      ("hello", "the frame is not a JSON object")])
    func aFrameThatIsNoPluginMessage_isRefusedSayingWhy(frame: String, reason: String) throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        let peer = PluginRawPeer(endpoint: harness.plugins, register: frame)
        defer { peer.stop() }
        let refusal = try #require(peer.refusal(), "no answer to \(frame)")
        #expect(refusal.code == "bad_request" && refusal.reason.contains(reason), "\(refusal.reason)")
        #expect(refusal.reason.contains("plugin.register, plugin.heartbeat, plugin.reply or plugin.bye"))
    }
}

/// A registration sent to the ask endpoint is told where plug-ins connect: it got only "unknown
/// request type 'plugin.register'" (plug-in QA).
struct PluginWrongEndpointTests {
    @Test func aRegistrationSentToTheAskEndpoint_isToldThePlugInEndpoint() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        let body = JSONValue.object(["service": .string("jokes"), "instance": .string("j1")])
        #expect {
            _ = try harness.client.call("plugin.register", body, as: JSONValue.self)
        } throws: { error in
            let message = (error as? ServiceError)?.message ?? ""
            return (error as? ServiceError)?.code == .unknownType
                && message.contains("intent services connect to the router's --plugins endpoint, \(harness.plugins)")
        }
    }
}

/// A connection the router dropped is told why when it speaks again: "this router does not know
/// you" said nothing of a takeover or an expiry (plug-in QA).
struct PluginUnknownInstanceTests {
    @Test func aConnectionTakenOver_isToldWhy_andALateReplyIsToldItWasNotUsed() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        let register = PluginRawPeer.register(service: "jokes", instance: "j1", intents: [PluginWireVersionTests.jokes])
        let first = PluginRawPeer(endpoint: harness.plugins, register: register)
        defer { first.stop() }
        #expect(first.isRegistered)
        let second = PluginRawPeer(endpoint: harness.plugins, register: register)
        defer { second.stop() }
        #expect(second.isRegistered)
        // The first heartbeats on (every 0.3 s): told it was replaced, and by what.
        let refusal = try #require(first.refusal())
        #expect(refusal.code == "unknown_instance" && refusal.reregister)
        #expect(refusal.reason.contains("instance j1 was registered since from another connection"), "\(refusal.reason)")
        first.send(PluginRawPeer.reply("r-late", #""result":"success","dialog":"Ha.""#))
        let late = first.frame { $0.contains("r-late") }
        #expect(late?.contains("your reply came after that and was not used") == true, "\(late ?? "nothing")")
    }
}

/// Members the router does not read are named in `plugin.registered`'s warnings: `heartbeat_ms`
/// was taken silently and the interval left at its default (plug-in QA).
struct PluginUnreadMemberTests {
    @Test func aRegistrationsMisspeltMembers_areNamedInTheWarnings() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        let intent = #"{"name":"Jokes","phrases":["[ask] {app} [to] tell me a joke"],"usesLocaton":true}"#
        let frame = #"{"v":1,"type":"plugin.register","service":"jokes","instance":"j1","heartbeat_ms":500,"#
            + #""intents":[\#(intent)]}"#
        let peer = PluginRawPeer(endpoint: harness.plugins, register: frame)
        defer { peer.stop() }
        let registered = try #require(peer.frame { $0.contains("plugin.registered") })
        let reply = try JSONCoding.decode(PluginRegistered.self, from: Data(registered.utf8))
        #expect(reply.warnings == ["heartbeat_ms: not a member the router reads (misspelt?); left out",
                                   "intents[0].usesLocaton: not a member the router reads (misspelt?); left out"])
        #expect(reply.heartbeatMs == 1000)
        let clean = PluginRawPeer(endpoint: harness.plugins, register: PluginRawPeer.register(
            service: "other", instance: "o1", intents: [#"{"name":"Other","phrases":["[ask] {app} [to] do the other"]}"#]))
        defer { clean.stop() }
        let cleanFrame = try #require(clean.frame { $0.contains("plugin.registered") })
        #expect(!cleanFrame.contains("warnings"), "\(cleanFrame)")
    }

    /// A reply's misspelt members are found ("dialogue" made the answer "Done.", silently: QA).
    @Test func aRepliesMisspeltMembers_areFound() {
        let frame = #"{"v":1,"type":"plugin.reply","id":"r1","result":"success","dialogue":"Opens at 8.","#
            + #""snippet":{"title":"Wash","subTitle":"x"},"options":[{"value":"a","title":"A","synonym":["b"]}],"#
            + #""parameters":{"anyName":1}}"#
        #expect(UnreadMembers.ofReply(Data(frame.utf8)) == ["dialogue", "snippet.subTitle", "options[0].synonym"])
    }

    /// Every member a reply can carry is one the router reads: the lists cannot drift from the type.
    @Test func aReplyWithEveryMember_hasNoneUnread() throws {
        var result = PluginResult(result: .success, dialog: "d", parameter: "p", options: [
            PluginOption(value: "v", title: "t", synonyms: ["s"])], value: "1", opensURL: "https://example.org",
            parameters: ["p": .string("v")])
        result.snippet = Snippet(title: "t", subtitle: "s", freshness: "f", price: "£1", id: "i", postcode: "YO8",
                                 lat: 53, lng: -1, pricePence: 139.9, stale: false,
                                 priceOutlier: .low)
        let payload = try JSONCoding.encode(PluginReply(id: "r1", result))
        #expect(String(decoding: payload, as: UTF8.self).contains("priceOutlier"))
        #expect(UnreadMembers.ofReply(payload).isEmpty)
    }
}
