import IntentKit
import Messages
import Testing

/// The user picks an option by its title, so two options with the same title are an answer the
/// router cannot use (before, a pick silently went to the first).
struct PluginDisambiguationCheckTests {
    private static func picking(_ titles: [String]) -> IntentDefinition {
        IntentDefinition("PickStation", parameters: [PluginParameter(name: "station", type: .string)],
                         phrases: ["[ask] {app} [to] pick a station"],
                         resolve: { request in
                             guard request.string("station") == nil else { return .success() }
                             let options = titles.enumerated().map { PluginOption(value: "s\($0.offset)", title: $0.element) }
                             return .disambiguation("station", options: options, "Which one?")
                         },
                         handle: { request in .success("Picked \(request.string("station") ?? "?").") })
    }

    @Test func distinctTitles_areAsked() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        try harness.start("stations", [Self.picking(["Links Road (YO32 9AA)", "Links Road (YO32 9AB)"])])
        let question = try harness.ask("Ask FuelBoard to pick a station")
        #expect(question.code == .disambiguation, "\(question.dialog)")
    }

    @Test func titlesAlike_areAnAnswerTheRouterCannotUse() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        try harness.start("stations", [Self.picking(["Links Road", "links road"])])
        let reply = try harness.ask("Ask FuelBoard to pick a station")
        #expect(reply.code == .failure)
        #expect(reply.dialog == "Sorry, the stations service gave an answer I can't use.", "\(reply.dialog)")
    }
}

/// A pick becomes the parameter's value, so the options' values must be values the parameter can
/// take: one of an `enum`'s values, a number for a `number`.
extension PluginDisambiguationCheckTests {
    private static func offering(_ parameter: PluginParameter, values: [String]) -> IntentDefinition {
        IntentDefinition("PickOne", parameters: [parameter], phrases: ["[ask] {app} [to] pick one"],
                         resolve: { request in
                             guard request.parameters[parameter.name] == nil else { return .success() }
                             let options = values.map { PluginOption(value: $0, title: "option \($0) here") }
                             return .disambiguation(parameter.name, options: options, "Which one?")
                         },
                         handle: { request in
                             .success("Picked \(request.parameters[parameter.name].map { "\($0)" } ?? "?").")
                         })
    }

    @Test func enumOptionsOutsideItsValues_areAnAnswerTheRouterCannotUse() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        try harness.start("fuels", [Self.offering(TestIntents.fuelParameter, values: ["B7", "purple"])])
        let reply = try harness.ask("Ask FuelBoard to pick one")
        #expect(reply.code == .failure)
        #expect(reply.dialog == "Sorry, the fuels service gave an answer I can't use.", "\(reply.dialog)")
    }

    @Test func enumOptionsAmongItsValues_areAsked_andThePickIsTheValue() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        try harness.start("fuels", [Self.offering(TestIntents.fuelParameter, values: ["B7", "E10"])])
        let question = try harness.ask("Ask FuelBoard to pick one")
        #expect(question.code == .disambiguation, "\(question.dialog)")
        let answer = try harness.ask("the second one", session: question.session)
        #expect(answer.dialog == #"Picked string("E10")."#, "\(answer.dialog)")
    }

    @Test func numberOptions_mustBeNumbers_andThePickIsANumber() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        let radius = PluginParameter(name: "radius", type: .number)
        try harness.start("radii", [Self.offering(radius, values: ["5", "10"]),
                                    IntentDefinition("PickWord", parameters: [PluginParameter(name: "size", type: .number)],
                                                     phrases: ["[ask] {app} [to] pick a size"],
                                                     resolve: { request in
                                                         request.parameters["size"] == nil
                                                             ? .disambiguation("size", options: [
                                                                 PluginOption(value: "big", title: "Big"),
                                                                 PluginOption(value: "small", title: "Small"),
                                                             ], "Which size?") : .success()
                                                     },
                                                     handle: { _ in .success("Sized.") })])
        let question = try harness.ask("Ask FuelBoard to pick one")
        #expect(question.code == .disambiguation, "\(question.dialog)")
        let answer = try harness.ask("option 10 here", session: question.session)
        #expect(answer.dialog == "Picked number(10.0).", "\(answer.dialog)")
        let words = try harness.ask("Ask FuelBoard to pick a size")
        #expect(words.dialog == "Sorry, the radii service gave an answer I can't use.", "\(words.dialog)")
    }
}

/// An answer that fits two options ("green" for "Green Lane, York" and "Green Park, Leeds") is
/// asked again as an unclear answer is; an option's value ("green") is never a word that picks it.
extension PluginDisambiguationCheckTests {
    @Test func anAnswerFittingTwoOptions_isAskedAgain_thenAClearOnePicks() throws {
        let harness = try PluginHarness()
        defer { harness.stop() }
        let streets = IntentDefinition(
            "PickStreet", parameters: [PluginParameter(name: "street", type: .string)],
            phrases: ["[ask] {app} [to] pick a street"],
            resolve: { request in
                guard request.string("street") == nil else { return .success() }
                return .disambiguation("street", options: [
                    PluginOption(value: "green", title: "Green Lane, York"),
                    PluginOption(value: "station", title: "Station Road, York"),
                    PluginOption(value: "park", title: "Green Park, Leeds"),
                ], "Green Lane, Station Road or Green Park?")
            },
            handle: { request in .success("Picked \(request.string("street") ?? "?").") })
        try harness.start("streets", [streets])
        let question = try harness.ask("Ask FuelBoard to pick a street")
        #expect(question.code == .disambiguation, "\(question.dialog)")
        let unclear = try harness.ask("green", session: question.session)
        #expect(unclear.code == .disambiguation && unclear.session == question.session, "\(unclear.dialog)")
        let clear = try harness.ask("Green Park", session: question.session)
        #expect(clear.dialog == "Picked park.", "\(clear.dialog)")
    }
}
