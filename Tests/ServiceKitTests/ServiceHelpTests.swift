import ServiceKit
@testable import ServiceKit
import Testing

/// `--help` lists the topology settings a binary uses as options, and names the ones it only
/// accepts (so one set of settings serves every binary) in a line after them.
struct ServiceHelpTests {
    private func optionLines(_ help: HelpText) -> [String] {
        help.rendered.split(separator: "\n").map(String.init).filter { $0.hasPrefix("  --") }
    }

    @Test func help_listsTheUsedSettingsAsOptions_andNamesTheOthersAfterThem() throws {
        let help = ServiceMain.help(name: "fuel-lookup", summary: "Answers lookups.", options: [],
                                    uses: ["--ingest", "--ingest-pub", "--lookup"])
        let flags = optionLines(help).map { String($0.dropFirst(2).prefix { $0 != " " }) }
        #expect(flags == ["--ingest", "--ingest-pub", "--lookup", "--bind", "--log-level", "--check-config",
                          "--version", "--help"])
        #expect(help.rendered.contains("[$FUELBOARD_LOOKUP, default tcp://127.0.0.1:5553]"))
        let footer = try #require(help.footer)
        #expect(footer.contains("--router, --location, --dialog, --data-dir"), "\(footer)")
        #expect(footer.contains("FUELBOARD_ROUTER, FUELBOARD_LOCATION, FUELBOARD_DIALOG, FUELBOARD_DATA_DIR"))
        let paragraph = help.rendered.components(separatedBy: "\n\n").last ?? ""
        #expect(paragraph.split(separator: "\n").allSatisfy { $0.count <= 100 }, "\(paragraph)")
        #expect(paragraph.replacingOccurrences(of: "\n", with: " ") == "\(footer)\n".replacingOccurrences(of: "\n", with: " "))
    }

    @Test func help_ofABinaryUsingEverySetting_hasNoFooter() {
        let help = ServiceMain.help(name: "all", summary: "All.", options: [], uses: Topology.settings.map(\.flag))
        #expect(help.footer == nil)
        #expect(optionLines(help).count == Topology.settings.count + 5)
    }

    @Test func help_keepsTheBinarysOwnOptionsFirst() {
        let help = ServiceMain.help(name: "dialog-renderer", summary: "Renders.",
                                    options: [OptionSpec("--templates", value: "DIR", help: "templates")],
                                    uses: ["--dialog"])
        #expect(optionLines(help).prefix(2).map { String($0.dropFirst(2).prefix { $0 != " " }) }
                == ["--templates", "--dialog"])
    }
}
