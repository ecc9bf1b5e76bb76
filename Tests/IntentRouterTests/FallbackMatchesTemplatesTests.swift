import DialogRenderer
import Foundation
@testable import IntentRouter
import Messages
import Testing

/// The router's built-in English says what dialog-renderer's en-GB templates say, word for word,
/// so a user hears the same thing with the renderer down (they had drifted: "I've forgotten your
/// location" where forgetting erases the settings too).
struct FallbackMatchesTemplatesTests {
    static let station = StationSummary(id: "tesco/1", retailer: "tesco", brand: "Tesco", name: "Tesco Selby",
                                        address: "Bawtry Road", postcode: "YO8 8NA", lat: 53.77, lng: -1.06)
    static let now = Date(timeIntervalSince1970: 1_760_000_000)

    static func request(_ outcome: DialogOutcome, unit: DistanceUnit) -> RenderRequest {
        RenderRequest(outcome: outcome, now: now, fuel: "B7", station: station, pricePence: 139.9,
                      distanceMiles: 2.34, updated: now - 7200, radiusMiles: 5, unit: unit, word: "hydrogen")
    }

    /// Under the default name and another (the templates' `{app}` and the router's `--app-name`).
    @Test(arguments: DialogOutcome.allCases)
    func builtInEnglish_isTheTemplatesWords(outcome: DialogOutcome) throws {
        for appName in ["FuelBoard", "Petrol Pal"] {
            let handler = try DialogRendererService.makeHandler(templates: nil, appName: appName)
            for unit in [DistanceUnit.miles, .km] {
                var request = Self.request(outcome, unit: unit)
                if outcome == .unitCleared { request.unit = .miles }  // the default, as the router sends it
                let rendered = try handler.render(request, now: Self.now)
                let builtIn = FallbackDialog.render(request, appName: appName)
                #expect(builtIn.dialog == rendered.dialog, "\(outcome) in \(unit) as \(appName)")
                // With every note an answer can carry: stale prices, an outlier price, the default settings.
                var noted = request
                noted.updated = Self.now - 3 * 86_400
                noted.priceOutlier = .low
                noted.defaultSettings = true
                noted.passedOver = PassedOverPrice(station: "BP Low Street", pricePence: 109.9,
                                                   updated: Self.now - 9 * 86_400)
                let notedText = try handler.render(noted, now: Self.now).dialog
                #expect(FallbackDialog.render(noted, appName: appName).dialog == notedText,
                        "\(outcome) with notes: \(FallbackDialog.render(noted, appName: appName).dialog) | \(notedText)")
                noted.priceOutlier = .high
                #expect(FallbackDialog.render(noted, appName: appName).dialog
                    == (try handler.render(noted, now: Self.now)).dialog, "\(outcome) with a high price")
            }
        }
    }

    /// "Nothing in range" at the largest radius says it is as far as the assistant looks.
    @Test func nothingInRange_atTheLargestRadius_isTheTemplatesWords() throws {
        let handler = try DialogRendererService.makeHandler(templates: nil, appName: "FuelBoard")
        for unit in [DistanceUnit.miles, .km] {
            var request = Self.request(.nothingInRange, unit: unit)
            request.radiusMiles = unit == .km ? 80.46 / DistanceUnit.kilometresPerMile : 50
            let rendered = try handler.render(request, now: Self.now)
            #expect(rendered.dialog.contains("That's as far as I look."), "\(rendered.dialog)")
            #expect(FallbackDialog.render(request, appName: "FuelBoard").dialog == rendered.dialog)
        }
    }

    /// The default templates name no app themselves: every mention is `{app}`.
    @Test func theTemplates_sayTheAppNameGiven() throws {
        let handler = try DialogRendererService.makeHandler(templates: nil, appName: "Petrol Pal")
        let said = try DialogOutcome.allCases.map { try handler.render(Self.request($0, unit: .miles), now: Self.now).dialog }
        #expect(!said.contains { $0.contains("FuelBoard") })
        #expect(said.contains("Petrol Pal only has fuel prices for the UK, and you seem to be outside it."))
    }
}
