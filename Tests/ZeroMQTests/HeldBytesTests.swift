import Foundation
import Testing
import ZeroMQ

/// `HeldBytes`: what libzmq holds of messages sent counting their bytes, until the connection takes them.
struct HeldBytesTests {
    /// Waits (at most 10 s) for `held` to reach `bytes`; libzmq frees written messages on its I/O thread.
    private func waitFor(_ held: HeldBytes, toHold bytes: Int) -> Bool {
        let deadline = ContinuousClock.now + .seconds(10)
        while held.bytes != bytes {
            if ContinuousClock.now > deadline { return false }
            sched_yield()
        }
        return true
    }

    @Test func messagesAPeerDoesNotRead_areCountedUntilItReadsThem() throws {
        let context = Context()
        let push = try Socket(context, .push)
        push.sendHighWaterMark = 1_000
        let endpoint = try push.bind("tcp://127.0.0.1:*")
        let pull = try Socket(context, .pull)
        pull.receiveHighWaterMark = 1
        pull.kernelReceiveBuffer = 4096
        pull.receiveTimeout = .seconds(5)
        try pull.connect(endpoint)
        let total = HeldBytes()
        let held = HeldBytes(total: total)
        // 32 MiB: far more than the kernel's buffers and the reader's one queued message take.
        let message = [UInt8](repeating: 42, count: 512 << 10)
        for _ in 0..<64 { try push.send([], then: message, heldIn: held) }
        #expect(held.bytes >= 8 << 20, "what the reader has not taken is still held: \(held.bytes)")
        #expect(held.bytes <= 32 << 20)
        #expect(total.bytes == held.bytes)
        for index in 0..<64 {
            let frames = try pull.receive()
            try #require(frames == [Data(message)], "message \(index) arrives whole")
        }
        #expect(waitFor(held, toHold: 0), "every message read is no longer held: \(held.bytes)")
        #expect(total.bytes == 0)
    }

    @Test func aMessageThatCannotBeSent_isNotCounted() throws {
        let context = Context()
        let router = try Socket(context, .router)
        router.setRouterMandatory(true)
        _ = try router.bind("tcp://127.0.0.1:*")
        let held = HeldBytes()
        #expect(throws: ZMQError.self) {
            try router.send([Data("nobody".utf8)], then: [UInt8](repeating: 1, count: 100_000), heldIn: held)
        }
        #expect(held.bytes == 0)
        // Past the route: a full queue refuses the message itself, which is freed and uncounted.
        let push = try Socket(context, .push)
        push.sendHighWaterMark = 1
        _ = try push.bind("tcp://127.0.0.1:*")
        #expect(throws: ZMQError.self) { try push.send([], then: [1, 2, 3], dontWait: true, heldIn: held) }
        #expect(held.bytes == 0)
    }
}
