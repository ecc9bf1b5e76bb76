import Foundation
import Messages
import ServiceTesting
import Testing
import ZeroMQ

/// A registration the router cannot take is refused with a reason that says what is wrong.
struct PluginRegistrationCheckTests {
    /// Sends one raw frame to the plug-in endpoint and returns the router's answer.
    private static func answer(to frame: String, harness: PluginHarness) throws -> String {
        let context = Context()
        defer { context.shutdown() }
        let socket = try Socket(context, .dealer)
        socket.linger = .zero
        socket.receiveTimeout = .seconds(5)
        try socket.connect(harness.plugins)
        try socket.send([Data(), Data(frame.utf8)])
        let reply = String(decoding: try socket.receive().last ?? Data(), as: UTF8.self)
        socket.close()
        return reply
    }

    private static let intent = #"{"name":"Jokes","phrases":["[ask] {app} [to] tell me a joke"]}"#

    @Test func anotherProtocolVersion_isRefusedSayingWhich() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        let reply = try Self.answer(to: #"{"v":2,"type":"plugin.register","service":"jokes","instance":"j1","intents":[\#(Self.intent)]}"#,
                                    harness: harness)
        #expect(reply.contains("plugin.refused") && reply.contains("protocol version 2"), "\(reply)")
    }

    @Test func aBadParameterType_isRefusedNamingTheField() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        let intent = #"{"name":"Jokes","parameters":[{"name":"topic","type":"colour"}],"phrases":["[ask] {app} [to] tell me a joke about {topic}"]}"#
        let reply = try Self.answer(to: #"{"v":1,"type":"plugin.register","service":"jokes","instance":"j1","intents":[\#(intent)]}"#,
                                    harness: harness)
        #expect(reply.contains("plugin.refused") && reply.contains("bad_request"), "\(reply)")
        #expect(reply.contains("type"), "the reason should name the field: \(reply)")
        // The words it takes, not a Swift type's name, and no hint about missing members.
        #expect(reply.contains(#"\"colour\" is not one of \"string\", \"number\", \"enum\""#), "\(reply)")
        #expect(!reply.contains("PluginParameterType") && !reply.contains("it needs service"), "\(reply)")
        #expect(reply.contains("colour") || reply.contains("parameters"), "\(reply)")
    }

    @Test func oneServiceTakingAPhraseInTwoIntents_isRefusedNamingBoth() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        let jokes = #"{"name":"Jokes","phrases":["[ask] {app} [to] tell me a joke"]}"#
        let puns = #"{"name":"Puns","phrases":["[ask] {app} [to] tell me a joke","[ask] {app} for a pun"]}"#
        let reply = try Self.answer(to: #"{"v":1,"type":"plugin.register","service":"jokes","instance":"j1","intents":[\#(jokes),\#(puns)]}"#,
                                    harness: harness)
        #expect(reply.contains("plugin.refused") && reply.contains("bad_request"), "\(reply)")
        #expect(reply.contains("Jokes") && reply.contains("Puns"), "\(reply)")
    }
}
