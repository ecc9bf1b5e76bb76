import Foundation
@testable import IntentRouter
import Messages
import ServiceKit
import Testing
import ZeroMQ

/// Which replica a backend channel sends each frame to, checked frame by frame against two raw
/// ROUTER sockets standing in for the replicas (the load test covers the same under load).
@Suite(.serialized)
struct ReplicaChoiceTests {
    /// Two bound ROUTERs and a channel connected to both, each connection up.
    private final class TwoReplicas {
        let context = Context()
        let replicas: [Socket]
        let channel: BackendChannel

        init() throws {
            var replicas: [Socket] = []
            var endpoints: [String] = []
            for _ in 0..<2 {
                let socket = try Socket(context, .router)
                socket.receiveTimeout = .seconds(2)
                endpoints.append(try socket.bind("tcp://127.0.0.1:*"))
                replicas.append(socket)
            }
            self.replicas = replicas
            channel = try BackendChannel(name: "lookup", context: context, endpoint: endpoints.joined(separator: ","),
                                         schedule: { _ in })
            // A socket takes frames only once its connection is up: send a probe on each until
            // one goes, and read it at its replica.
            for (index, socket) in channel.sockets.enumerated() {
                let giveUp = ContinuousClock.now + .seconds(5)
                while (try? socket.send([Data(), Data("probe".utf8)], dontWait: true)) == nil {
                    guard ContinuousClock.now < giveUp else { throw ServiceError(.timeout, "replica \(index) never connected") }
                }
                _ = try replicas[index].receive()
            }
        }

        /// The replica `frame` reached (read from both ROUTERs, whichever has it).
        func whereArrived(_ frame: String) throws -> Int {
            for (index, replica) in replicas.enumerated() {
                replica.receiveTimeout = .milliseconds(200)
                if let frames = try? replica.receive(), frames.last == Data(frame.utf8) { return index }
            }
            throw ServiceError(.timeout, "\(frame) reached no replica")
        }

        /// The replica the next frame, whatever it is, reached.
        func whereAnyArrived() throws -> Int {
            for (index, replica) in replicas.enumerated() {
                replica.receiveTimeout = .milliseconds(200)
                if (try? replica.receive()) != nil { return index }
            }
            throw ServiceError(.timeout, "no frame reached a replica")
        }
    }

    @Test func replicasTakeTurns() throws {
        let lab = try TwoReplicas()
        var reached: [Int] = []
        for index in 0..<4 {
            let chosen = try #require(lab.channel.sendToReplica(Data("f\(index)".utf8)))
            #expect(try lab.whereArrived("f\(index)") == chosen)
            reached.append(chosen)
        }
        #expect(reached == [0, 1, 0, 1] || reached == [1, 0, 1, 0], "\(reached)")
    }

    @Test func aReplicaPassedOver_getsNothing_whileAnotherTakesFrames() throws {
        let lab = try TwoReplicas()
        lab.channel.passOver(0)
        for index in 0..<3 {
            #expect(lab.channel.sendToReplica(Data("p\(index)".utf8)) == 1)
            #expect(try lab.whereArrived("p\(index)") == 1)
        }
    }

    @Test func aRetry_avoidsTheReplicaThatHadTheCall() throws {
        let lab = try TwoReplicas()
        for avoided in [0, 1, 1, 0] {
            let chosen = lab.channel.sendToReplica(Data("r".utf8), avoiding: avoided)
            #expect(chosen == 1 - avoided)
            _ = try lab.whereArrived("r")
        }
    }

    /// A replica that leaves a call unanswered for half its time (hung, its connection up) has the
    /// call sent to the other and is passed over: the next calls go to the other one only.
    @Test func aReplicaSilentForHalfACallsTime_isPassedOver() throws {
        let lab = try TwoReplicas()
        let deadline = ContinuousClock.now + .seconds(2)
        lab.channel.send(.lookupCheapest, LookupRequest(fuel: "B7", lat: 53.8, lng: -1.07), deadline: deadline,
                         retryable: true) { _ in }
        lab.channel.sendOutbox()
        let silent = try lab.whereAnyArrived()
        lab.channel.expire(now: deadline - .milliseconds(900))  // past half its time, before its deadline
        #expect(try lab.whereAnyArrived() == 1 - silent, "the retry goes to the other replica")
        for index in 0..<3 {
            #expect(lab.channel.sendToReplica(Data("n\(index)".utf8)) == 1 - silent)
            #expect(try lab.whereArrived("n\(index)") == 1 - silent)
        }
    }

    @Test func everyReplicaPassedOver_stillGetsFrames() throws {
        let lab = try TwoReplicas()
        lab.channel.passOver(0)
        lab.channel.passOver(1)
        // A replica still loading answers at once: better than no answer at all.
        let chosen = try #require(lab.channel.sendToReplica(Data("a".utf8)))
        #expect(try lab.whereArrived("a") == chosen)
    }
}
