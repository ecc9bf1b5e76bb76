@testable import FuelboardCLI
import Messages
import Testing

/// What `fuelboard ask --card` draws under the dialog (a plug-in developer's QA pass).
struct AskCardTests {
    /// A plug-in's page was labelled "Directions"; only a directions answer's maps link is.
    @Test func aURLThatIsNoDirections_isLabelledOpens() {
        let page = AssistantReply(code: .success, dialog: "Booked.", opensURL: "https://example.com/wash",
                                  service: "car-wash", result: .success)
        #expect(AskCommand.render(page) == "Booked.\nOpens: https://example.com/wash")
        let maps = AssistantReply(code: .success, dialog: "Here are directions.",
                                  opensURL: "https://maps.apple.com/?daddr=1,2", outcome: .directions)
        #expect(AskCommand.render(maps).hasSuffix("\nDirections: https://maps.apple.com/?daddr=1,2"))
    }

    /// A question with options showed only its dialog: the options are listed, numbered as they
    /// can be picked ("the second one", "2").
    @Test func aQuestionsOptions_areListedInOrder_andOnlyWithTheCard() {
        let question = AssistantReply(code: .disambiguation, dialog: "Which one?",
                                      options: [PluginOption(value: "a", title: "Green Lane, York"),
                                                PluginOption(value: "b", title: "Station Road, York")])
        #expect(AskCommand.render(question) == "Which one?\n  1. Green Lane, York\n  2. Station Road, York")
        #expect(AskCommand.render(question, card: false) == "Which one?")
    }
}
