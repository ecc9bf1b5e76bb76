import Foundation
import Messages
import ServiceKit
import ServiceTesting
import Testing
import ZeroMQ

/// A plug-in's answer with a member the router does not read ("dialogue" for "dialog") is named
/// in the router's log, once for each instance: one service's misspellings once used up a cap
/// shared by all, and another's were never logged (hostile QA).
struct PluginReplyMembersLogTests {
    /// A plug-in on a bare DEALER: registers `service` with one intent said as `phrase`, then
    /// answers each request with `fields`.
    private final class BarePlugin {
        let socket: Socket

        init(_ context: Context, endpoint: String, service: String, intent: String, phrase: String) throws {
            socket = try Socket(context, .dealer)
            socket.receiveTimeout = .seconds(5)
            socket.linger = .zero
            try socket.connect(endpoint)
            let register = #"{"v":1,"type":"plugin.register","service":"\#(service)","instance":"\#(service)-1","#
                + #""intents":[{"name":"\#(intent)","phrases":["\#(phrase)"],"stages":["handle"]}]}"#
            try socket.send([Data(register.utf8)])
            while !(try frame()).contains("plugin.registered") {}
        }

        func frame() throws -> String { String(decoding: try socket.receive().last ?? Data(), as: UTF8.self) }

        /// Waits for the next request and answers it with `fields` (JSON members without braces).
        func answerNext(_ fields: String) throws {
            var text = try frame()
            while !text.contains("plugin.request") { text = try frame() }
            let id = try #require((try JSONCoding.decode([String: JSONValue].self, from: Data(text.utf8)))["id"]?.stringValue)
            try socket.send([Data(#"{"v":1,"type":"plugin.reply","id":"\#(id)",\#(fields)}"#.utf8)])
        }
    }

    /// Sends an ask on `asker` (a DEALER to the router), has `plugin` answer it with `fields`, and
    /// reads the ask's answer.
    private static func ask(_ asker: Socket, _ utterance: String, answeredBy plugin: BarePlugin, with fields: String)
        throws -> String {
        let ask = #"{"v":1,"id":"a","type":"assistant.ask","body":{"user":"u1","utterance":"\#(utterance)"}}"#
        try asker.send([Data(), Data(ask.utf8)])
        try plugin.answerNext(fields)
        return String(decoding: try asker.receive().last ?? Data(), as: UTF8.self)
    }

    @Test func eachServicesMisspeltMembers_areLogged_evenAfterAnothersMany() throws {
        let nowhere = try unservedEndpoint()
        let router = try ServiceProcess("intent-router", ["--bind", "tcp://127.0.0.1:*", "--plugins", "tcp://127.0.0.1:*",
                                                          "--location", nowhere, "--lookup", nowhere, "--dialog", nowhere])
        defer { _ = try? router.terminate() }
        let context = Context()
        let asker = try Socket(context, .dealer)
        asker.receiveTimeout = .seconds(5)
        asker.linger = .zero
        try asker.connect(try router.endpoint())
        let opened = try router.waitForLog { $0.contains("plugins open") }
        let marker = try #require(opened.range(of: "svc.plugins="))
        let plugins = String(opened[marker.upperBound...].prefix { $0 != " " })
        let alpha = try BarePlugin(context, endpoint: plugins, service: "alpha", intent: "Alpha", phrase: "[ask] {app} to do alpha")
        let beta = try BarePlugin(context, endpoint: plugins, service: "beta", intent: "Beta", phrase: "[ask] {app} to do beta")
        // alpha answers with made-up members again and again: one line for it.
        for round in 0..<20 {
            let fields = (0..<50).map { #""made\#(round)x\#($0)":1"# }.joined(separator: ",")
            let answer = try Self.ask(asker, "Ask FuelBoard to do alpha", answeredBy: alpha,
                                      with: #""result":"success","dialog":"A.",\#(fields)"#)
            #expect(answer.contains("A."), "\(answer)")
        }
        let answer = try Self.ask(asker, "Ask FuelBoard to do beta", answeredBy: beta,
                                  with: #""result":"success","dialogue":"Opens at 8.""#)
        #expect(answer.contains("Done."), "the misspelt dialog is not read: \(answer)")
        let line = try router.waitForLog { $0.contains("plugin reply members not read") && $0.contains("service=beta") }
        #expect(line.contains("members=dialogue"), "\(line)")
        let alphaLines = router.log.split(separator: "\n").filter {
            $0.contains("plugin reply members not read") && $0.contains("service=alpha")
        }
        #expect(alphaLines.count == 1, "\(alphaLines)")
    }
}
