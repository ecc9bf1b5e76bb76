@testable import IntentRouter
import IntentKit
import Messages
import ServiceKit
import Testing

/// Values a stage returns must fit the parameters the intent declared: a wrong type is an answer
/// the router cannot use, not a value passed on to the next stage.
struct PluginParameterTypeTests {
    private static let minutes = PluginParameter(name: "minutes", type: .number)

    /// "Ask FuelBoard to set a reminder": resolve sets the fuel and the minutes, handle says them.
    private static func reminder(fuel: JSONValue, minutes: JSONValue) -> IntentDefinition {
        IntentDefinition("Reminder", parameters: [TestIntents.fuelParameter, Self.minutes],
                         phrases: ["[ask] {app} [to] set a reminder"],
                         resolve: { _ in .success(parameters: ["fuel": fuel, "minutes": minutes]) },
                         handle: { request in
                             .success("\(request.string("fuel") ?? "?") in \(request.parameters["minutes"].map { "\($0)" } ?? "?")")
                         })
    }

    @Test func valuesOfTheDeclaredTypes_reachTheNextStage() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        try harness.start("reminders", [Self.reminder(fuel: .string("B7"), minutes: .number(20))])
        let reply = try harness.ask("Ask FuelBoard to set a reminder")
        #expect(reply.code == .success, "\(reply.dialog)")
        #expect(reply.parameters?["fuel"] == .string("B7") && reply.parameters?["minutes"] == .number(20))
    }

    @Test(arguments: [
        (JSONValue.string("purple"), JSONValue.number(20)),  // not one of the enum's values
        (.string("B7"), .string("abc")),                     // a number parameter given text
        (.number(7), .number(20)),                           // an enum given a number
    ])
    func aValueOfTheWrongType_isAnAnswerTheRouterCannotUse(fuel: JSONValue, minutes: JSONValue) throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        try harness.start("reminders", [Self.reminder(fuel: fuel, minutes: minutes)])
        let reply = try harness.ask("Ask FuelBoard to set a reminder")
        #expect(reply.code == .failure)
        #expect(reply.dialog == "Sorry, the reminders service gave an answer I can't use.", "\(reply.dialog)")
    }

    /// A said number has no sign; assistant.run passed a shortcut's -5 or 1e300 minutes on.
    @Test func run_givesANumberParameterOnlyWhatCouldBeSaid() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        try harness.start("reminders", [Self.reminder(fuel: .string("B7"), minutes: .number(20))])
        func run(_ minutes: JSONValue) throws(ServiceError) -> AssistantReply {
            try harness.client.call(.assistantRun, AssistantRunRequest(user: "u1", intent: "Reminder",
                                                                       parameters: ["minutes": minutes]),
                                    as: AssistantReply.self)
        }
        for refused in [JSONValue.number(-5), .string("five")] {
            do {
                _ = try run(refused)
                Issue.record("accepted \(refused)")
            } catch {
                #expect(error.code == .badRequest && error.message == "Reminder: minutes must be a number of 0 or more",
                        "\(error.message)")
            }
        }
        #expect(try run(.number(0)).code == .success)
        #expect(try run(.number(12.5)).code == .success)
    }

    /// One check for a value however it comes (a run, a stage's reply, an option): what fits is
    /// given back in its declared form, what does not is refused saying what it must be.
    @Test func check_followsTheDeclaredType_andReadsSynonymsAsTheirValue() throws {
        let free = PluginParameter(name: "note", type: .string)
        let colour = PluginParameter(name: "c", type: .string,
                                     values: [PluginValue("red", synonyms: ["crimson"]), PluginValue("blue")])
        func check(_ value: JSONValue, _ parameter: PluginParameter) -> JSONValue? {
            try? PluginIntentGrammar.check(value, for: parameter, of: "Test")
        }
        #expect(check(.string("anything"), free) == .string("anything"))
        #expect(check(.number(1), free) == nil)
        #expect(check(.null, Self.minutes) == .null)
        #expect(check(.number(.infinity), Self.minutes) == nil)
        #expect(check(.number(-5), Self.minutes) == nil, "a said number has no sign, nor a reply's")
        #expect(check(.string("E10"), TestIntents.fuelParameter) == .string("E10"))
        // A string with values takes free words too, and a synonym as its value.
        #expect(check(.string("purple"), colour) == .string("purple"))
        #expect(check(.string("Crimson"), colour) == .string("red"))
    }
}
