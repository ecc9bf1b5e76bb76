import IntentKit
import Messages
import Synchronization
import Testing

/// A request sent after the user said yes carries `"confirmed": true`, so a handle stage that asks
/// for confirmation can tell the second request from the first (it used to get an identical
/// request, ask again, and loop for as long as the user kept saying yes).
struct PluginConfirmationTests {
    /// What a handler saw, kept across threads.
    private final class Seen: Sendable {
        private let values = Mutex<[Bool?]>([])
        func add(_ value: Bool?) { values.withLock { $0.append(value) } }
        var all: [Bool?] { values.withLock { $0 } }
    }

    /// "Ask FuelBoard to delete my car": handle asks first, and deletes once confirmed. Records the
    /// `confirmed` of every request it gets.
    private static func deleteCar(seen: Seen) -> IntentDefinition {
        IntentDefinition("DeleteCar", phrases: ["[ask] {app} [to] delete my car"]) { request in
            seen.add(request.confirmed)
            return request.isConfirmed ? .success("Your car is deleted.") : .confirmationRequired("Delete your car?")
        }
    }

    @Test func aHandleThatAsksForConfirmation_proceedsAfterYes() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        let seen = Seen()
        try harness.start("cars", [Self.deleteCar(seen: seen)])
        let question = try harness.ask("Ask FuelBoard to delete my car")
        #expect(question.code == .confirmationRequired, "\(question.dialog)")
        let answer = try harness.ask("yes", session: question.session)
        #expect(answer.code == .success, "\(answer.dialog)")
        #expect(answer.dialog == "Your car is deleted.")
        #expect(seen.all == [nil, true])
    }

    @Test func aConfirmStage_thenYes_sendsHandleConfirmed() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        let seen = Seen()
        let notes = IntentDefinition("ClearNotes", phrases: ["[ask] {app} [to] clear my notes"],
                                     confirm: { _ in .confirmationRequired("Clear your notes?") },
                                     handle: { request in
                                         seen.add(request.confirmed)
                                         return .success("Cleared.")
                                     })
        try harness.start("notes", [notes])
        let question = try harness.ask("Ask FuelBoard to clear my notes")
        #expect(try harness.ask("yes", session: question.session).dialog == "Cleared.")
        #expect(seen.all == [true])
    }

    @Test func aRequestTheUserHasNotConfirmed_carriesNoConfirmedField() throws {
        let request = PluginRequest(id: "1", stage: .handle, intent: "X", parameters: [:], user: "u", session: nil,
                                    location: nil, locale: nil, now: nil, deadlineMs: 100)
        let text = String(decoding: try JSONCoding.encode(request), as: UTF8.self)
        #expect(!text.contains("confirmed"), "\(text)")
        var confirmed = request
        confirmed.confirmed = true
        #expect(String(decoding: try JSONCoding.encode(confirmed), as: UTF8.self).contains(#""confirmed":true"#))
    }

    /// A handle that asks again although the request says the user confirmed would loop: it is an
    /// answer the router cannot use, and the service is told why.
    @Test func aHandleAskingAgainAfterYes_isAnAnswerTheRouterCannotUse() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        let stubborn = IntentDefinition("DeleteCar", phrases: ["[ask] {app} [to] delete my car"]) { _ in
            .confirmationRequired("Delete your car?")
        }
        let service = try harness.start("cars", [stubborn])
        let question = try harness.ask("Ask FuelBoard to delete my car")
        let answer = try harness.ask("yes", session: question.session)
        #expect(answer.code == .failure)
        #expect(answer.session == nil)
        #expect(answer.dialog == "Sorry, the cars service gave an answer I can't use.", "\(answer.dialog)")
        #expect(service.wait { $0.refusedReplies == 1 })
        #expect(service.status.refusal == nil && service.status.registered)
    }
}
