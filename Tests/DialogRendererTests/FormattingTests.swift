import DialogRenderer
import Foundation
import Messages
import Testing

/// Prices, distances and radii as the user hears them.
struct FormattingTests {
    @Test(arguments: [(139.9, "£1.399"), (145, "£1.450"), (99.9, "£0.999"), (100, "£1.000"), (0.1, "£0.001"),
                      (1234.5, "£12.345")])
    func price_inPence_isSpokenAsPoundsWithThreeDecimals(pence: Double, spoken: String) throws {
        let reply = try Fixtures.render(Fixtures.stationRequest(pricePence: pence))
        #expect(reply.snippet?.price == spoken)
        #expect(reply.dialog.contains(" at \(spoken), "))
    }

    @Test(arguments: [(2.3, "2.3 miles"), (2.34, "2.3 miles"), (0.96, "1 mile"), (1.0, "1 mile"), (1.04, "1 mile"),
                      (1.16, "1.2 miles"), (0.3, "0.3 miles"), (0.1, "0.1 miles"), (2.0, "2 miles"),
                      (9.96, "10 miles"), (10, "10 miles"), (12.5, "13 miles"), (45.99, "46 miles"),
                      (99.99, "100 miles"), (0, "less than 0.1 miles"), (0.09, "less than 0.1 miles")])
    func distance_inMiles_readsNaturallyAloud(miles: Double, spoken: String) throws {
        let reply = try Fixtures.render(Fixtures.stationRequest(distanceMiles: miles, unit: .miles))
        #expect(reply.value == "Tesco Selby: £1.399, \(spoken)")
        #expect(reply.dialog.contains(", \(spoken) away — "))
        #expect(reply.snippet?.subtitle == "Diesel · \(spoken)")
    }

    @Test(arguments: [(2.3, "3.7 km"), (0.62, "1 km"), (5, "8 km"), (0.1, "0.2 km"), (0.43, "0.7 km"),
                      (7.5, "12 km"), (0.05, "less than 0.1 km")])
    func distance_inKm_isMilesTimes1Point609344ReadTheSameWay(miles: Double, spoken: String) throws {
        let reply = try Fixtures.render(Fixtures.stationRequest(distanceMiles: miles, unit: .km))
        #expect(reply.value == "Tesco Selby: £1.399, \(spoken)")
        #expect(reply.dialog.contains(", \(spoken) away — "))
        #expect(reply.snippet?.subtitle == "Diesel · \(spoken)")
    }

    @Test(arguments: [(5.0, DistanceUnit.miles, "5 miles"), (1, .miles, "1 mile"), (2.5, .miles, "2.5 miles"),
                      (12.34, .miles, "12 miles"), (5, .km, "8 km"), (10, .km, "16 km"), (0.62, .km, "1 km"),
                      (3, .km, "4.8 km")])
    func radius_readsLikeADistance(miles: Double, unit: DistanceUnit, spoken: String) throws {
        let request = RenderRequest(outcome: .nothingInRange, fuel: "B7", radiusMiles: miles, unit: unit)
        let reply = try Fixtures.render(request)
        #expect(reply.dialog == "I don't have diesel prices for any station within \(spoken) of you.")
    }

    @Test func radiusSet_speaksTheRadiusInTheUsersUnit() throws {
        let miles = try Fixtures.render(RenderRequest(outcome: .radiusSet, radiusMiles: 10))
        let km = try Fixtures.render(RenderRequest(outcome: .radiusSet, radiusMiles: 10, unit: .km))
        #expect(miles.dialog == "OK, I'll look for fuel within 10 miles of you from now on.")
        #expect(km.dialog == "OK, I'll look for fuel within 16 km of you from now on.")
    }

    @Test func unitSet_namesTheUnit() throws {
        let reply = try Fixtures.render(RenderRequest(outcome: .unitSet, unit: .km))
        #expect(reply.dialog == "OK, I'll give distances in kilometres from now on.")
    }

    @Test func resets_withoutValues_speakTheDefaults() throws {
        let radius = try Fixtures.render(RenderRequest(outcome: .radiusCleared))
        let unit = try Fixtures.render(RenderRequest(outcome: .unitCleared))
        #expect(radius.dialog == "OK, I'm back to looking for fuel within 5 miles of you.")
        #expect(unit.dialog == "OK, I'm back to giving distances in miles.")
    }
}
