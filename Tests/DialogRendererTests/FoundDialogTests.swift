import DialogRenderer
import Foundation
import Messages
import Testing

/// The found and directions outcomes: the exact sentences the phone app speaks, and the card.
struct FoundDialogTests {
    @Test func found_whenPricedToday_speaksTheExactSentence() throws {
        let reply = try Fixtures.render(Fixtures.stationRequest())
        #expect(reply.dialog
            == "The cheapest diesel near you is Tesco Selby at £1.399, 2.3 miles away — prices as of 6:30 AM.")
        #expect(reply.value == "Tesco Selby: £1.399, 2.3 miles")
        #expect(reply.opensURL == nil)
    }

    @Test func found_snippet_carriesDisplayStringsAndStationData() throws {
        let snippet = try #require(try Fixtures.render(Fixtures.stationRequest()).snippet)
        #expect(snippet == Snippet(title: "Tesco Selby", subtitle: "Diesel · 2.3 miles",
                                   freshness: "prices as of 6:30 AM", price: "£1.399", id: "tesco/2567",
                                   postcode: "YO8 4QH", lat: 53.768681, lng: -1.089549, pricePence: 139.9,
                                   stale: false))
    }

    @Test func found_whenUnitIsKm_givesKilometres() throws {
        let reply = try Fixtures.render(Fixtures.stationRequest(unit: .km))
        #expect(reply.dialog
            == "The cheapest diesel near you is Tesco Selby at £1.399, 3.7 km away — prices as of 6:30 AM.")
        #expect(reply.value == "Tesco Selby: £1.399, 3.7 km")
        #expect(reply.snippet?.subtitle == "Diesel · 3.7 km")
    }

    @Test func found_whenOneMileAway_usesTheSingular() throws {
        let reply = try Fixtures.render(Fixtures.stationRequest(distanceMiles: 0.97))
        #expect(reply.dialog.contains("at £1.399, 1 mile away — "))
        #expect(reply.value == "Tesco Selby: £1.399, 1 mile")
    }

    @Test(arguments: [("E10", "unleaded", "Unleaded"), ("E5", "premium unleaded", "Premium unleaded"),
                      ("B7", "diesel", "Diesel"), ("SDV", "super diesel", "Super diesel"),
                      ("sdv", "super diesel", "Super diesel")])
    func found_namesEachFuelAsPeopleSayIt(code: String, spoken: String, title: String) throws {
        var request = try Fixtures.stationRequest()
        request.fuel = code
        let reply = try Fixtures.render(request)
        #expect(reply.dialog.hasPrefix("The cheapest \(spoken) near you is Tesco Selby"))
        #expect(reply.snippet?.subtitle == "\(title) · 2.3 miles")
    }

    @Test func found_whenPricesAreOlderThan48Hours_saysTheyMayBeOutOfDate() throws {
        let reply = try Fixtures.render(Fixtures.stationRequest(updated: "2025-10-03T11:00:00+01:00"))
        #expect(reply.dialog == "The cheapest diesel near you is Tesco Selby at £1.399, 2.3 miles away — "
            + "prices as of 3 Oct at 11:00 AM. These prices may be out of date.")
        #expect(reply.snippet?.stale == true)
        #expect(reply.snippet?.freshness == "prices as of 3 Oct at 11:00 AM")
    }

    @Test func found_whenPricesAreFresh_hasNoOutOfDateNote() throws {
        let reply = try Fixtures.render(Fixtures.stationRequest(updated: "2025-10-08T18:30:00+01:00"))
        #expect(reply.dialog.hasSuffix("— prices as of yesterday at 6:30 PM."))
        #expect(reply.snippet?.stale == false)
    }

    @Test func found_withALowOutlierPrice_saysItMayBeOutOfDate() throws {
        var request = try Fixtures.stationRequest()
        request.priceOutlier = .low
        let reply = try Fixtures.render(request)
        #expect(reply.dialog == "The cheapest diesel near you is Tesco Selby at £1.399, 2.3 miles away — "
            + "prices as of 6:30 AM. That price is much lower than at the retailer's other stations, "
            + "so it may be out of date.")
        #expect(reply.snippet?.priceOutlier == .low)
        #expect(reply.snippet?.stale == false)
        #expect(reply.value == "Tesco Selby: £1.399, 2.3 miles")
    }

    /// Out of date and low: "may be out of date" was said twice in a row (QA).
    @Test func found_withALowOutlierPriceThatIsStale_saysOutOfDateOnce() throws {
        var request = try Fixtures.stationRequest(updated: "2025-10-03T11:00:00+01:00")
        request.priceOutlier = .low
        let reply = try Fixtures.render(request)
        #expect(reply.dialog.hasSuffix("These prices may be out of date. "
            + "That price is also much lower than at the retailer's other stations."), "\(reply.dialog)")
        #expect(reply.dialog.components(separatedBy: "out of date").count == 2, "\(reply.dialog)")
        #expect(reply.snippet?.priceOutlier == .low && reply.snippet?.stale == true)
    }

    @Test(arguments: [DialogOutcome.found, .directions, .nearestFound, .nearestDirections])
    func stationAnswers_withAHighOutlierPrice_sayItIsHigh_afterTheStaleNote(outcome: DialogOutcome) throws {
        var request = try Fixtures.stationRequest(outcome, updated: "2025-10-03T11:00:00+01:00")
        request.priceOutlier = .high
        let reply = try Fixtures.render(request)
        #expect(reply.dialog.hasSuffix("These prices may be out of date. "
            + "That price is much higher than at the retailer's other stations."), "\(reply.dialog)")
        #expect(reply.snippet?.priceOutlier == .high)
    }

    @Test func found_withoutAnOutlierFlag_hasNoNoteAndNoFlagOnTheCard() throws {
        let reply = try Fixtures.render(Fixtures.stationRequest())
        #expect(!reply.dialog.contains("retailer's other stations"))
        #expect(reply.snippet?.priceOutlier == nil)
    }

    /// A cheaper price passed over because its feed lags is named, with its own price and age,
    /// after the answer's notes; a bad one is left out rather than failing the answer.
    @Test func found_withAPricePassedOver_namesItWithItsAge() throws {
        var request = try Fixtures.stationRequest()
        request.passedOver = PassedOverPrice(station: "BP Low Street", pricePence: 119.9,
                                             updated: try Fixtures.time("2025-09-20T09:00:00+01:00"))
        let reply = try Fixtures.render(request)
        #expect(reply.dialog == "The cheapest diesel near you is Tesco Selby at £1.399, 2.3 miles away — prices as of "
            + "6:30 AM. BP Low Street has a lower price, £1.199, but that is from prices as of 20 Sep at 9:00 AM.",
                "\(reply.dialog)")
        #expect(reply.snippet?.title == "Tesco Selby", "the card stays the answer's")
        request.passedOver?.pricePence = -3
        #expect(!(try Fixtures.render(request)).dialog.contains("lower price"))
        var nothing = RenderRequest(outcome: .nothingInRange, fuel: "B7", radiusMiles: 5)
        nothing.passedOver = PassedOverPrice(station: "BP Low Street", pricePence: 119.9, updated: Date())
        #expect(!(try Fixtures.render(nothing)).dialog.contains("lower price"), "only after a station answer")
    }

    @Test func found_withTheDefaultSettings_saysSoLast() throws {
        var request = try Fixtures.stationRequest(updated: "2025-10-03T11:00:00+01:00")
        request.priceOutlier = .low
        request.defaultSettings = true
        let reply = try Fixtures.render(request)
        #expect(reply.dialog.hasSuffix("These prices may be out of date. That price is also much lower than at the "
            + "retailer's other stations. I couldn't reach your saved settings just now, "
            + "so I used the standard ones."), "\(reply.dialog)")
        #expect(reply.value == "Tesco Selby: £1.399, 2.3 miles")
    }

    @Test(arguments: [DialogOutcome.nothingInRange, .radiusSet, .noPrices])
    func theDefaultSettingsNote_isSaidOnlyAfterASearchsAnswer(outcome: DialogOutcome) throws {
        var request = try Fixtures.stationRequest(outcome)
        request.radiusMiles = 5
        request.defaultSettings = true
        let reply = try Fixtures.render(request)
        #expect(reply.dialog.hasSuffix("so I used the standard ones.") == (outcome == .nothingInRange), "\(reply.dialog)")
    }

    @Test func anAnswerWithoutAStation_saysNothingOfAnOutlierFlag() throws {
        var request = try Fixtures.stationRequest(.nothingInRange)
        request.radiusMiles = 5
        request.priceOutlier = .low
        let reply = try Fixtures.render(request)
        #expect(!reply.dialog.contains("retailer's other stations"), "\(reply.dialog)")
    }

    @Test func found_withoutNowInTheRequest_usesTheCallersClock() throws {
        var request = try Fixtures.stationRequest()
        request.now = nil
        let reply = try Fixtures.handler.render(request, now: try Fixtures.time("2025-10-12T09:00:00+01:00"))
        #expect(reply.dialog.hasSuffix("prices as of 9 Oct at 6:30 AM. These prices may be out of date."))
    }

    @Test func found_priceWithFloatNoise_isRoundedToTenthsOfAPenny() throws {
        let reply = try Fixtures.render(Fixtures.stationRequest(pricePence: 151.89999999999998))
        #expect(reply.snippet?.price == "£1.519")
        #expect(reply.snippet?.pricePence == 151.9)
    }

    @Test func directions_answersWithAMapsURLAndNamesTheStation() throws {
        let reply = try Fixtures.render(Fixtures.stationRequest(.directions))
        #expect(reply.opensURL == "https://maps.apple.com/?daddr=53.768681,-1.089549&dirflg=d")
        #expect(reply.snippet?.id == "tesco/2567")
        #expect(reply.snippet?.subtitle == "Diesel · 2.3 miles")
    }

    @Test func directions_saysHowOldThePriceIsAsFoundDoes() throws {
        let today = try Fixtures.render(Fixtures.stationRequest(.directions))
        #expect(today.dialog
            == "Here are directions to Tesco Selby, the cheapest diesel near you at £1.399 — prices as of 6:30 AM.")
        let yesterday = try Fixtures.render(Fixtures.stationRequest(.directions, updated: "2025-10-08T18:30:00+01:00"))
        #expect(yesterday.dialog.hasSuffix("at £1.399 — prices as of yesterday at 6:30 PM."))
        #expect(yesterday.snippet?.freshness == "prices as of yesterday at 6:30 PM")
    }

    @Test func directions_whenPricesAreStale_givesTheirDateAndSaysSo() throws {
        let reply = try Fixtures.render(Fixtures.stationRequest(.directions, updated: "2025-10-01T08:00:00+01:00"))
        #expect(reply.dialog == "Here are directions to Tesco Selby, the cheapest diesel near you at £1.399 — "
            + "prices as of 1 Oct at 8:00 AM. These prices may be out of date.")
        #expect(reply.snippet?.stale == true)
    }

    @Test func mapsLink_keepsCoordinatesAsGivenWithoutExponents() {
        #expect(MapsLink.directions(lat: 51.5, lng: -0.12) == "https://maps.apple.com/?daddr=51.5,-0.12&dirflg=d")
        #expect(MapsLink.directions(lat: 51.47789, lng: -0.00001)
            == "https://maps.apple.com/?daddr=51.47789,-0.00001&dirflg=d")
        #expect(MapsLink.directions(lat: 52, lng: 0) == "https://maps.apple.com/?daddr=52,0&dirflg=d")
    }

    @Test func found_fromWireJSON_rendersTheSameSentence() throws {
        let json = """
            {"outcome": "found", "locale": "en-GB", "now": "2025-12-03T15:00:00Z", "fuel": "B7",
             "station": {"id": "tesco/2567", "retailer": "tesco", "brand": "Tesco", "name": "Tesco Selby",
                         "address": "Portholme Road, Selby", "postcode": "YO8 4QH",
                         "lat": 53.768681, "lng": -1.089549},
             "pricePence": 139.9, "distanceMiles": 2.3, "updated": "2025-12-03T06:30:00Z", "unit": "miles"}
            """
        let request = try JSONCoding.decode(RenderRequest.self, from: Data(json.utf8))
        let reply = try Fixtures.render(request)
        #expect(reply.dialog
            == "The cheapest diesel near you is Tesco Selby at £1.399, 2.3 miles away — prices as of 6:30 AM.")
    }
}
