import DialogRenderer
import Foundation
import Messages
import Testing

/// Every outcome has a sentence; the fixed ones are exact; missing or bad facts are `bad_request`.
struct OutcomeDialogTests {
    /// A request with every fact filled in, for any outcome.
    private static func fullRequest(_ outcome: DialogOutcome) throws -> RenderRequest {
        var request = try Fixtures.stationRequest(outcome)
        request.radiusMiles = 5
        request.unit = .miles
        request.word = "hydrogen"
        return request
    }

    /// A request with only the outcome's required fields (station fields come together).
    private static func minimalRequest(_ outcome: DialogOutcome) throws -> RenderRequest {
        let full = try fullRequest(outcome)
        var request = RenderRequest(outcome: outcome, now: full.now)
        for field in outcome.requiredFields {
            switch field {
            case "station": request.station = full.station
            case "fuel": request.fuel = full.fuel
            case "pricePence": request.pricePence = full.pricePence
            case "distanceMiles": request.distanceMiles = full.distanceMiles
            case "updated": request.updated = full.updated
            case "radiusMiles": request.radiusMiles = full.radiusMiles
            case "unit": request.unit = full.unit
            case "word": request.word = full.word
            default: Issue.record("unexpected required field \(field)")
            }
        }
        return request
    }

    @Test(arguments: DialogOutcome.allCases)
    func everyOutcome_withAllFacts_rendersASentence(outcome: DialogOutcome) throws {
        let reply = try Fixtures.render(Self.fullRequest(outcome))
        #expect(reply.dialog.count > 10)
        #expect(!reply.dialog.contains("{") && !reply.dialog.contains("}"))
        #expect(reply.dialog.last.map { ".?!".contains($0) } == true)
    }

    @Test(arguments: DialogOutcome.allCases)
    func everyOutcome_withOnlyItsRequiredFields_renders(outcome: DialogOutcome) throws {
        let reply = try Fixtures.render(Self.minimalRequest(outcome))
        #expect(!reply.dialog.isEmpty)
    }

    @Test(arguments: [
        // Prices are loaded on the server: nothing the user opens or does will bring them sooner.
        (DialogOutcome.noPrices, "I don't have any fuel prices yet. Please try again later."),
        (.noLocation, "I don't know your location yet. Open FuelBoard and allow location access, then ask me again."),
        (.askFuel, "Which fuel: unleaded, premium, diesel or super diesel?"),
        // The answer to "no" after "Do you want me to forget your location and settings?".
        (.notForgotten, "OK, I'll keep your location and settings."),
    ])
    func fixedOutcomes_speakTheExactSentence(outcome: DialogOutcome, sentence: String) throws {
        let reply = try Fixtures.render(RenderRequest(outcome: outcome))
        #expect(reply.dialog == sentence)
        #expect(reply.snippet == nil && reply.opensURL == nil)
    }

    @Test func nothingInRange_speaksTheFuelAndRadius() throws {
        let five = try Fixtures.render(RenderRequest(outcome: .nothingInRange, fuel: "B7", radiusMiles: 5))
        let one = try Fixtures.render(RenderRequest(outcome: .nothingInRange, fuel: "B7", radiusMiles: 1))
        #expect(five.dialog == "I don't have diesel prices for any station within 5 miles of you.")
        #expect(one.dialog == "I don't have diesel prices for any station within 1 mile of you.")
    }

    /// At the largest radius the answer says asking further cannot help, in miles or km.
    @Test func nothingInRange_atTheLargestRadius_saysThatIsAsFarAsItLooks() throws {
        for (miles, unit) in [(50.0, DistanceUnit.miles), (80.46 / DistanceUnit.kilometresPerMile, .km)] {
            let request = RenderRequest(outcome: .nothingInRange, fuel: "B7", radiusMiles: miles, unit: unit)
            let reply = try Fixtures.render(request)
            #expect(reply.dialog.hasSuffix(" of you. That's as far as I look."), "\(reply.dialog)")
        }
        let short = try Fixtures.render(RenderRequest(outcome: .nothingInRange, fuel: "B7", radiusMiles: 49))
        #expect(!short.dialog.contains("as far as"))
    }

    @Test func unsupportedFuel_quotesTheWordAndListsTheFuels() throws {
        let reply = try Fixtures.render(RenderRequest(outcome: .unsupportedFuel, word: "  hydrogen\n"))
        #expect(reply.dialog.hasPrefix("FuelBoard doesn't have prices for hydrogen"))
        for fuel in ["unleaded", "premium unleaded", "diesel", "super diesel"] {
            #expect(reply.dialog.contains(fuel))
        }
    }

    @Test func unsupportedFuel_withAVeryLongWord_clipsIt() throws {
        let word = String(repeating: "x", count: 500)
        let reply = try Fixtures.render(RenderRequest(outcome: .unsupportedFuel, word: word))
        #expect(reply.dialog.count < 200)
    }

    @Test func help_saysWhatCanBeAsked() throws {
        let dialog = try Fixtures.render(RenderRequest(outcome: .help)).dialog
        for topic in ["cheapest fuel near you", "directions", "search radius", "miles or kilometres",
                      "forget your location"] {
            #expect(dialog.contains(topic), "help lacks \(topic)")
        }
    }

    @Test func notUnderstood_saysSoThenWhatCanBeAsked() throws {
        let reply = try Fixtures.render(RenderRequest(outcome: .notUnderstood))
        #expect(reply.dialog.hasPrefix("Sorry, I didn't catch that. You can ask me for the cheapest fuel near you"))
    }

    @Test func appNotNamed_saysToStartWithTheAppsName() throws {
        let reply = try Fixtures.render(RenderRequest(outcome: .appNotNamed))
        #expect(reply.dialog == "To ask me something, start with my name: for example, "
            + "“Ask FuelBoard for the cheapest diesel near me”.")
        #expect(reply.snippet == nil && reply.value == nil)
    }

    @Test func namedPlace_saysSearchesAreNearTheUser() throws {
        let reply = try Fixtures.render(RenderRequest(outcome: .namedPlace))
        #expect(reply.dialog.hasPrefix("I can only search near where you are"))
        #expect(reply.dialog.contains("“Ask FuelBoard for the cheapest diesel near me”"))
    }

    @Test func outsideCoverage_saysFuelBoardCoversTheUK() throws {
        let reply = try Fixtures.render(RenderRequest(outcome: .outsideCoverage, fuel: "B7"))
        #expect(reply.dialog == "FuelBoard only has fuel prices for the UK, and you seem to be outside it.")
        #expect(reply.snippet == nil)
    }

    @Test func unavailableAndConfirmOutcomes_haveTheirOpenings() throws {
        #expect(try Fixtures.render(RenderRequest(outcome: .pricesUnavailable)).dialog
            .hasPrefix("I can't reach fuel prices right now"))
        let confirm = try Fixtures.render(RenderRequest(outcome: .confirmForget)).dialog
        #expect(confirm.contains("?") && confirm.contains("yes or no"))
    }

    @Test func radiusOutOfRange_ignoresAnUnusableRadius() throws {
        let reply = try Fixtures.render(RenderRequest(outcome: .radiusOutOfRange, radiusMiles: 1e12))
        #expect(reply.dialog == "Sorry, the search radius has to be between 1 and 50 miles.")
    }

    @Test(arguments: [
        (DistanceUnit?.none, "How far should I look for fuel? You can choose anything from 1 to 50 miles.",
         "Sorry, the search radius has to be between 1 and 50 miles."),
        (.miles, "How far should I look for fuel? You can choose anything from 1 to 50 miles.",
         "Sorry, the search radius has to be between 1 and 50 miles."),
        // 1.6 and 80.5 km, rounded inward: every radius offered is one the router accepts.
        (.km, "How far should I look for fuel? You can choose anything from 2 to 80 km.",
         "Sorry, the search radius has to be between 2 and 80 km."),
    ])
    func radiusLimits_areGivenInTheUsersUnit(unit: DistanceUnit?, ask: String, outOfRange: String) throws {
        #expect(try Fixtures.render(RenderRequest(outcome: .askRadius, unit: unit)).dialog == ask)
        let refused = RenderRequest(outcome: .radiusOutOfRange, radiusMiles: 90, unit: unit, word: "ninety")
        #expect(try Fixtures.render(refused).dialog == outOfRange)
    }

    @Test func found_withoutStation_isBadRequestNamingTheField() throws {
        var request = try Fixtures.stationRequest()
        request.station = nil
        let error = #expect(throws: ServiceError.self) { try Fixtures.render(request) }
        #expect(error?.code == .badRequest)
        #expect(error?.message == "outcome found needs \"station\"")
    }

    @Test func found_withNothing_namesEveryMissingField() {
        let error = #expect(throws: ServiceError.self) { try Fixtures.render(RenderRequest(outcome: .found)) }
        #expect(error?.message
            == "outcome found needs \"station\", \"fuel\", \"pricePence\", \"distanceMiles\", \"updated\"")
    }

    @Test(arguments: [
        (DialogOutcome.nothingInRange, "radiusMiles"), (.unsupportedFuel, "word"), (.radiusSet, "radiusMiles"),
        (.unitSet, "unit"), (.directions, "station"),
    ])
    func outcome_missingItsFact_isBadRequest(outcome: DialogOutcome, field: String) throws {
        var request = try Self.fullRequest(outcome)
        switch field {
        case "radiusMiles": request.radiusMiles = nil
        case "word": request.word = nil
        case "unit": request.unit = nil
        default: request.station = nil
        }
        let error = #expect(throws: ServiceError.self) { try Fixtures.render(request) }
        #expect(error?.code == .badRequest)
        #expect(error?.message.contains("\"\(field)\"") == true)
    }

    @Test func badValues_areBadRequestsNamingTheField() throws {
        var request = try Fixtures.stationRequest()
        request.fuel = "hydrogen"
        #expect(throws: ServiceError.badRequest("fuel 'hydrogen' is not a fuel code: use E10, E5, B7 or SDV")) {
            try Fixtures.render(request)
        }
        for (mutate, field) in [({ (r: inout RenderRequest) in r.pricePence = -1 }, "pricePence"),
                                ({ (r: inout RenderRequest) in r.distanceMiles = -0.5 }, "distanceMiles"),
                                ({ (r: inout RenderRequest) in r.station?.lat = 91 }, "station.lat"),
                                ({ (r: inout RenderRequest) in r.station?.name = " " }, "station.name")] {
            var bad = try Fixtures.stationRequest()
            mutate(&bad)
            let error = #expect(throws: ServiceError.self) { try Fixtures.render(bad) }
            #expect(error?.code == .badRequest)
            #expect(error?.message.hasPrefix(field) == true, "\(error?.message ?? "")")
        }
        let emptyWord = RenderRequest(outcome: .unsupportedFuel, word: " \t ")
        #expect(throws: ServiceError.badRequest("word is empty")) { try Fixtures.render(emptyWord) }
    }
}
