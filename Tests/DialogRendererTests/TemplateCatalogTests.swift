import DialogRenderer
import Foundation
import Messages
import Testing

/// Locale files: loading, fallback to en-GB, and clear errors for broken files.
struct TemplateCatalogTests {
    /// A second locale that only overrides two texts and the decimal separator.
    private static let welsh = """
        {"_about": "partial on purpose",
         "outcomes": {"noPrices": {"dialog": "Does gen i ddim prisiau eto."},
                      "found": {"value": "{station}: {price}"}},
         "numbers": {"decimalSeparator": ","}}
        """

    private func catalog(_ extra: [String: String]) throws -> TemplateCatalog {
        var files = ["en-GB.json": try Fixtures.baseFile]
        for (name, text) in extra { files[name] = Data(text.utf8) }
        return try TemplateCatalog(files: files)
    }

    private func handler(_ extra: [String: String]) throws -> RenderHandler {
        RenderHandler(catalog: try catalog(extra), calendar: try #require(FeedAge.londonCalendar()))
    }

    @Test func bundledTemplates_loadWithEnGB() throws {
        #expect(try TemplateCatalog.bundled().locales == ["en-GB"])
    }

    @Test func secondLocale_isANewFileAndFallsBackKeyByKey() throws {
        let handler = try handler(["cy-GB.json": Self.welsh])
        #expect(handler.catalog.locales == ["cy-GB", "en-GB"])
        let noPrices = try handler.render(RenderRequest(outcome: .noPrices, locale: "cy-GB"))
        #expect(noPrices.dialog == "Does gen i ddim prisiau eto.")
        let noLocation = try handler.render(RenderRequest(outcome: .noLocation, locale: "cy-GB"))
        #expect(noLocation.dialog.hasPrefix("I don't know your location yet."))
        let found = try handler.render(Fixtures.stationRequest(locale: "cy-GB"))
        #expect(found.value == "Tesco Selby: £1,399")
        #expect(found.dialog.contains("2,3 miles"))
    }

    @Test(arguments: ["cy-gb", "cy_GB", "cy", "CY-GB"])
    func requestedLocale_matchesCaseAndSeparatorAndLanguage(locale: String) throws {
        let reply = try handler(["cy-GB.json": Self.welsh]).render(RenderRequest(outcome: .noPrices, locale: locale))
        #expect(reply.dialog == "Does gen i ddim prisiau eto.")
    }

    @Test(arguments: ["fr-FR", "en-US", "", "not a locale at all", "../../etc"])
    func unknownLocale_fallsBackToEnGB(locale: String) throws {
        let handler = try handler(["cy-GB.json": Self.welsh])
        #expect(handler.catalog.texts(for: locale).locale == "en-GB")
        let reply = try handler.render(RenderRequest(outcome: .noPrices, locale: locale))
        #expect(reply.dialog.hasPrefix("I don't have any fuel prices yet."))
    }

    @Test func locale_canSayMidnightAndNoonItsOwnWay() throws {
        let text = #"{"clock": {"time": "{hour24}:{minute}", "midnight": "{hour24}:{minute}", "noon": "hanner dydd"}}"#
        let handler = try handler(["cy-GB.json": text])
        func label(_ updated: String) throws -> String? {
            try handler.render(Fixtures.stationRequest(updated: updated, locale: "cy-GB")).snippet?.freshness
        }
        #expect(try label("2025-10-09T00:00:00+01:00") == "prices as of 00:00")
        #expect(try label("2025-10-09T12:00:00+01:00") == "prices as of hanner dydd")
        #expect(try label("2025-10-09T06:30:00+01:00") == "prices as of 06:30")
    }

    @Test func radiusLimits_canBePlacedByALocale() throws {
        let text = #"{"outcomes": {"askRadius": {"dialog": "Rhwng {min} a {max}?"}}}"#
        let handler = try handler(["cy-GB.json": text])
        let reply = try handler.render(RenderRequest(outcome: .askRadius, locale: "cy-GB", unit: .km))
        #expect(reply.dialog == "Rhwng 2 a 80 km?")
        let misplaced = #"{"outcomes": {"help": {"dialog": "Up to {max}."}}}"#
        #expect(throws: TemplateError.self) { try catalog(["cy-GB.json": misplaced]) }
    }

    @Test func brokenSecondLocale_namesTheFile() throws {
        let error = #expect(throws: TemplateError.self) { try catalog(["cy-GB.json": "{\"outcomes\": "]) }
        #expect(error?.file == "cy-GB.json")
        #expect(error?.description.hasPrefix("templates: cy-GB.json: not valid JSON") == true)
    }

    @Test func misspeltPlaceholder_namesFileKeyAndAllowedPlaceholders() throws {
        let text = #"{"outcomes": {"found": {"dialog": "Cheapest: {staton}."}}}"#
        let error = #expect(throws: TemplateError.self) { try catalog(["cy-GB.json": text]) }
        #expect(error?.key == "outcomes.found.dialog")
        #expect(error?.problem.hasPrefix("{staton} cannot be used here; it may use {distance}") == true)
    }

    @Test func placeholderFromAnotherOutcome_isRejected() throws {
        let text = #"{"outcomes": {"help": {"dialog": "Ask about {station}."}}}"#
        let error = #expect(throws: TemplateError.self) { try catalog(["cy-GB.json": text]) }
        #expect(error?.problem == "{station} cannot be used here; it may use {app}")
    }

    /// `{app}` may be written in any text and says the name given at start-up.
    @Test func appPlaceholder_saysTheNameGiven() throws {
        let text = #"{"outcomes": {"help": {"dialog": "Ask {app}, or ask {{app}}."}}}"#
        let catalog = try TemplateCatalog(files: ["en-GB.json": try Fixtures.baseFile, "cy-GB.json": Data(text.utf8)],
                                          appName: "Petrol Pal")
        let help = try #require(catalog.texts(for: "cy-GB").template("outcomes.help.dialog"))
        #expect(help.placeholders.isEmpty)
        #expect(help.render(TemplateValues()) == "Ask Petrol Pal, or ask {app}.")
    }

    @Test(arguments: [
        (#"{"outcomes": {"found": {"dialgo": "x"}}}"#, "outcomes.found.dialgo", "unknown key"),
        (#"{"numbers": {"decimalSeparator": 1}}"#, "numbers.decimalSeparator", "expected a text or a group"),
        (#"{"outcomes": {"help": {"dialog": "  "}}}"#, "outcomes.help.dialog", "empty text"),
        (#"{"outcomes": {"help": {"dialog": "Say {fuel"}}}"#, "outcomes.help.dialog", "'{' without a closing"),
        (#"{"outcomes": {"help": {"dialog": "Say fuel}"}}}"#, "outcomes.help.dialog", "'}' without an opening"),
        (#"{"outcomes": {"help": {"dialog": "Say { fuel }"}}}"#, "outcomes.help.dialog", "'{ fuel }' is not"),
    ])
    func brokenEntry_namesTheKeyAndProblem(text: String, key: String, problem: String) throws {
        let error = #expect(throws: TemplateError.self) { try catalog(["cy-GB.json": text]) }
        #expect(error?.file == "cy-GB.json")
        #expect(error?.key == key)
        #expect(error?.problem.hasPrefix(problem) == true, "\(error?.problem ?? "")")
    }

    @Test func baseLocaleMissingARequiredKey_isReported() {
        let error = #expect(throws: TemplateError.self) {
            try TemplateCatalog(files: ["en-GB.json": Data(#"{"outcomes": {"help": {"dialog": "Help."}}}"#.utf8)])
        }
        #expect(error?.file == "en-GB.json")
        #expect(error?.problem.hasPrefix("missing ") == true)
    }

    @Test func noBaseLocale_isReported() {
        let error = #expect(throws: TemplateError.self) {
            try TemplateCatalog(files: ["cy-GB.json": Data(Self.welsh.utf8)])
        }
        #expect(error?.description == "templates: en-GB.json: missing: the base locale is required")
    }

    @Test func badFileNames_areReported() throws {
        let badName = #expect(throws: TemplateError.self) { try catalog(["english.json": "{}"]) }
        #expect(badName?.file == "english.json")
        let duplicate = #expect(throws: TemplateError.self) { try catalog(["en-gb.json": "{}"]) }
        #expect(duplicate?.problem.hasPrefix("the same locale as") == true)
    }

    @Test func templateFolder_onDisk_isLoadedAndOtherFilesIgnored() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dialog-templates-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Fixtures.baseFile.write(to: folder.appendingPathComponent("en-GB.json"))
        try Data(Self.welsh.utf8).write(to: folder.appendingPathComponent("cy-GB.json"))
        try Data("notes".utf8).write(to: folder.appendingPathComponent("README.md"))
        #expect(try TemplateCatalog(directory: folder).locales == ["cy-GB", "en-GB"])
    }

    @Test func missingFolder_isAnErrorNotACrash() {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-folder-\(UUID())")
        let error = #expect(throws: TemplateError.self) { try TemplateCatalog(directory: folder) }
        #expect(error?.description.hasPrefix("templates: cannot read the template folder") == true)
    }

    @Test func template_escapedBraces_areLiteral() throws {
        let template = try Template(parsing: "{{literal}} {name} }}")
        #expect(template.placeholders == ["name"])
        #expect(template.render(["name": "x"]) == "{literal} x }")
    }
}
