import Foundation
@testable import IntentRouter
import Testing

/// Registrations wait their turn: one per peer (a newer frame replaces the one waiting), taken
/// while their share of the loop's time lasts.
struct RegistrationQueueTests {
    @Test func aPeersNewerFrame_replacesTheOneWaiting_andPeersAreTakenInTurn() {
        let start = ContinuousClock.now
        var queue = RegistrationQueue(now: start)
        let one = Data([1]), two = Data([2])
        queue.hold(Data("a1".utf8), from: one)
        queue.hold(Data("b1".utf8), from: two)
        queue.hold(Data("a2".utf8), from: one)
        #expect(queue.count == 2 && queue.superseded == 1)
        var taken: [String] = []
        queue.takeTurns(now: start) { _, payload in taken.append(String(decoding: payload, as: UTF8.self)) }
        #expect(taken == ["a2", "b1"] && queue.count == 0)
    }

    @Test func registrationsThatTakeTheirShare_waitForItToComeBack() {
        let start = ContinuousClock.now
        var queue = RegistrationQueue(now: start)
        for peer in 0..<3 { queue.hold(Data([UInt8(peer)]), from: Data([UInt8(peer)])) }
        var taken = 0
        // Each takes longer than the whole burst: one is taken, the others wait.
        let slow: (Data, Data) -> Void = { _, _ in
            taken += 1
            let until = ContinuousClock.now + RegistrationQueue.burst + .milliseconds(50)
            while ContinuousClock.now < until {}
        }
        queue.takeTurns(now: start, slow)
        #expect(taken == 1 && queue.count == 2)
        queue.takeTurns(now: ContinuousClock.now, slow)
        #expect(taken == 1, "the share spent is not back yet")
        // Ten times the time spent later (a tenth of the loop's time goes to registrations): taken.
        queue.takeTurns(now: ContinuousClock.now + .seconds(2), slow)
        #expect(taken == 2)
    }

    /// One registration longer than the burst owes only the burst: the next waits ten bursts (a
    /// second), not ten times as long as that one took.
    @Test func aRegistrationLongerThanTheBurst_owesOnlyTheBurst() {
        let start = ContinuousClock.now
        var queue = RegistrationQueue(now: start)
        for peer in 0..<2 { queue.hold(Data([UInt8(peer)]), from: Data([UInt8(peer)])) }
        var taken = 0
        let slow: (Data, Data) -> Void = { _, _ in
            taken += 1
            let until = ContinuousClock.now + RegistrationQueue.burst * 5
            while ContinuousClock.now < until {}
        }
        queue.takeTurns(now: start, slow)
        #expect(taken == 1)
        var early = queue
        early.takeTurns(now: start + RegistrationQueue.burst * 8, slow)
        #expect(taken == 1, "the burst owed is not back yet")
        // Owed 4 bursts more without the floor (not back after 25 bursts' time); with it, after 10.
        queue.takeTurns(now: start + RegistrationQueue.burst * 25, slow)
        #expect(taken == 2)
    }
}
