import Foundation
import Messages
import ServiceTesting
import Synchronization
import Testing
import ZeroMQ

/// A plug-in whose reply cannot be read (an unknown result, a wrong type, a frame over the size
/// limit) gets its ask answered at once with a spoken failure, not after the deadline, and is told why.
struct PluginUnreadableReplyTests {
    /// A raw plug-in on its own thread: registers FuelFact, answers every request with the frame
    /// `reply` makes of its id, and keeps the first `plugin.refused` it is sent.
    private final class BrokenPlugIn: Sendable {
        let registered = DispatchSemaphore(value: 0)
        let refused = DispatchSemaphore(value: 0)
        let refusal = Mutex("")
        let context = Context()

        init(endpoint: String, reply: @escaping @Sendable (String) -> String) {
            let intent = TestIntents.fuelFact().declaration
            Thread { [self] in
                guard let socket = try? Socket(context, .dealer) else { return }
                socket.linger = .zero
                socket.receiveTimeout = .seconds(10)  // the loop ends after 10 s of silence, or at shutdown
                try? socket.connect(endpoint)
                let register = PluginRegister(service: "broken-facts", instance: "b1", intents: [intent],
                                              heartbeatMs: 1000)
                guard let frame = try? JSONCoding.encode(register), (try? socket.send([Data(), frame])) != nil else {
                    return
                }
                while let frames = try? socket.receive() {
                    let text = String(decoding: frames.last ?? Data(), as: UTF8.self)
                    if text.contains("plugin.registered") { registered.signal() }
                    if text.contains("plugin.request"),
                       let request = try? JSONCoding.decode(PluginRequest.self, from: Data(text.utf8)) {
                        _ = try? socket.send([Data(), Data(reply(request.id).utf8)])
                    }
                    if text.contains("plugin.refused") {
                        refusal.withLock { $0 = text }
                        refused.signal()
                    }
                }
                socket.close()
            }.start()
        }
    }

    @Test func aReplyTheRouterCannotRead_failsTheAskAtOnce_andTellsThePlugIn() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        let plugIn = BrokenPlugIn(endpoint: harness.plugins) { id in
            #"{"v":1,"type":"plugin.reply","id":"\#(id)","result":"maybe"}"#
        }
        defer { plugIn.context.shutdown() }
        #expect(plugIn.registered.wait(timeout: .now() + 5) == .success)
        let start = ContinuousClock.now
        let reply = try harness.ask("Ask FuelBoard to tell me about diesel")
        let took = ContinuousClock.now - start
        #expect(reply.code == .failure)
        #expect(reply.dialog == "Sorry, the broken facts service gave an answer I can't use.", "\(reply.dialog)")
        #expect(took < harness.deadline, "answered after \(took), the deadline is \(harness.deadline)")
        #expect(plugIn.refused.wait(timeout: .now() + 5) == .success)
        #expect(plugIn.refusal.withLock { $0 }.contains("could not be read"))
    }
}

extension PluginUnreadableReplyTests {
    /// A reply over 256 KiB (here a 300 KiB dialog) is refused naming the limit, and the ask fails
    /// at once; the relay used to drop such a frame without a word, and the user waited the deadline.
    @Test func aReplyOverTheSizeLimit_failsTheAskAtOnce_andTellsThePlugInTheLimit() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        let plugIn = BrokenPlugIn(endpoint: harness.plugins) { id in
            #"{"v":1,"type":"plugin.reply","id":"\#(id)","result":"success","dialog":""#
                + String(repeating: "a", count: 300 << 10) + #""}"#
        }
        defer { plugIn.context.shutdown() }
        #expect(plugIn.registered.wait(timeout: .now() + 5) == .success)
        let start = ContinuousClock.now
        let reply = try harness.ask("Ask FuelBoard to tell me about diesel")
        let took = ContinuousClock.now - start
        #expect(reply.dialog == "Sorry, the broken facts service gave an answer I can't use.", "\(reply.dialog)")
        #expect(took < harness.deadline, "answered after \(took), the deadline is \(harness.deadline)")
        #expect(plugIn.refused.wait(timeout: .now() + 5) == .success)
        #expect(plugIn.refusal.withLock { $0 }.contains("over the 256 KiB limit"), "\(plugIn.refusal.withLock { $0 })")
    }
}
