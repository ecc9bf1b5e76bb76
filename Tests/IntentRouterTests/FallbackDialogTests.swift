import Foundation
@testable import IntentRouter
import Messages
import Testing

struct FallbackDialogTests {
    static let station = StationSummary(id: "tesco/1", retailer: "tesco", brand: "Tesco", name: "Tesco Selby",
                                        address: "Bawtry Road", postcode: "YO8 8NA", lat: 53.77, lng: -1.06)

    @Test func everyOutcome_hasSomethingToSay() {
        for outcome in DialogOutcome.allCases {
            let reply = FallbackDialog.render(RenderRequest(outcome: outcome), appName: "FuelBoard")
            #expect(!reply.dialog.isEmpty, "\(outcome)")
        }
    }

    @Test(arguments: [(DistanceUnit?.none, "1 to 50", "between 1 and 50 miles"),
                      (.miles, "1 to 50", "between 1 and 50 miles"), (.km, "2 to 80", "between 2 and 80 km")])
    func radiusLimits_areSaidInTheUsersUnit(unit: DistanceUnit?, asked: String, refused: String) {
        let question = FallbackDialog.render(RenderRequest(outcome: .askRadius, unit: unit), appName: "FuelBoard")
        #expect(question.dialog.contains(asked), "\(question.dialog)")
        #expect(question.dialog.contains(unit == .km ? "80 km" : "50 miles"), "\(question.dialog)")
        let refusal = FallbackDialog.render(RenderRequest(outcome: .radiusOutOfRange, unit: unit), appName: "FuelBoard")
        #expect(refusal.dialog.contains(refused), "\(refusal.dialog)")
    }

    /// 2025-10-09 08:53:20 UTC (9:53:20 AM on the London clock, BST).
    static let now = Date(timeIntervalSince1970: 1_760_000_000)

    @Test func found_speaksStationPriceDistanceAndHowOldThePricesAre() {
        let request = RenderRequest(outcome: .found, now: Self.now, fuel: "B7", station: Self.station,
                                    pricePence: 139.9, distanceMiles: 2.34, updated: Self.now - 7200)
        let reply = FallbackDialog.render(request, appName: "FuelBoard")
        #expect(reply.dialog == "The cheapest diesel near you is Tesco Selby at £1.399, 2.3 miles away — "
            + "prices as of 7:53 AM.")
        #expect(reply.value == "Tesco Selby: £1.399, 2.3 miles")
        #expect(reply.snippet?.freshness == "prices as of 7:53 AM")
        #expect(reply.snippet?.price == "£1.399")
        #expect(reply.snippet?.id == "tesco/1")
        #expect(reply.snippet?.postcode == "YO8 8NA")
        #expect(reply.snippet?.pricePence == 139.9)
        #expect(reply.snippet?.stale == false)
        #expect(reply.opensURL == nil)
    }

    /// A price days old is never spoken without its age and the warning.
    @Test(arguments: [
        (TimeInterval(26 * 3600), "prices as of yesterday at 7:53 AM."),
        (TimeInterval(899_600), "prices as of 29 Sep at midnight. These prices may be out of date."),
    ])
    func found_withOlderPrices_saysWhenTheyAreFrom(age: TimeInterval, ending: String) {
        let request = RenderRequest(outcome: .found, now: Self.now, fuel: "B7", station: Self.station,
                                    pricePence: 120, distanceMiles: 0.5, updated: Self.now - age)
        let reply = FallbackDialog.render(request, appName: "FuelBoard")
        #expect(reply.dialog.hasSuffix(ending), "\(reply.dialog)")
        #expect(reply.snippet?.stale == (age > 48 * 3600))
    }

    @Test func directions_carryAMapsURLAndSayHowOldThePriceIs() {
        let request = RenderRequest(outcome: .directions, now: Self.now, fuel: "E10", station: Self.station,
                                    pricePence: 135, distanceMiles: 1, updated: Self.now - 3600)
        let reply = FallbackDialog.render(request, appName: "FuelBoard")
        #expect(reply.opensURL == "https://maps.apple.com/?daddr=53.77,-1.06&dirflg=d")
        #expect(reply.dialog == "Here are directions to Tesco Selby, the cheapest unleaded near you at £1.350 — "
            + "prices as of 8:53 AM.")
        #expect(reply.value == "Tesco Selby: £1.350, 1 mile")
    }

    @Test(arguments: [(0.0, DistanceUnit.miles, "less than 0.1 miles"), (2.0, .miles, "2 miles"),
                      (45.99, .miles, "46 miles"), (1.0, .miles, "1 mile"), (0.43, .km, "0.7 km"),
                      (7.5, .km, "12 km")])
    func distances_readAsTheRendererReadsThem(miles: Double, unit: DistanceUnit, spoken: String) {
        #expect(FallbackDialog.distance(miles, unit) == spoken)
    }

    @Test func unsupportedFuel_namesTheAppAndTheWord() {
        let reply = FallbackDialog.render(RenderRequest(outcome: .unsupportedFuel, word: "hydrogen"),
                                          appName: "PumpPal")
        #expect(reply.dialog.hasPrefix("PumpPal doesn't have prices for hydrogen"))
    }

    @Test func nothingInRange_usesTheUsersUnit() {
        let request = RenderRequest(outcome: .nothingInRange, fuel: "B7", radiusMiles: 5, unit: .km)
        let reply = FallbackDialog.render(request, appName: "FuelBoard")
        #expect(reply.dialog == "I don't have diesel prices for any station within 8 km of you.")
    }

    /// A stored location over an hour old is said to be where the user was, as dialog-renderer says it.
    @Test(arguments: [
        (nil, "you"), (TimeInterval(1800), "you"), (-600, "you"), (5400, "where you were an hour ago"),
        (3 * 3600, "where you were 3 hours ago"), (23.5 * 3600, "where you were 23 hours ago"),
        (26 * 3600, "where you were yesterday"), (4 * 86400, "where you were on 5 Oct"),
        (400 * 86400, "where you were on 4 Sep 2024"),
    ] as [(TimeInterval?, String)])
    func stationAnswers_sayWhereTheSearchWasMadeFrom(age: TimeInterval?, place: String) {
        var found = RenderRequest(outcome: .found, now: Self.now, fuel: "B7", station: Self.station,
                                  pricePence: 139.9, distanceMiles: 2.34, updated: Self.now - 7200)
        found.locationAt = age.map { Self.now - $0 }
        #expect(FallbackDialog.render(found, appName: "FuelBoard").dialog
            == "The cheapest diesel near \(place) is Tesco Selby at £1.399, 2.3 miles away — prices as of 7:53 AM.")
        found.outcome = .directions
        #expect(FallbackDialog.render(found, appName: "FuelBoard").dialog.hasPrefix(
            "Here are directions to Tesco Selby, the cheapest diesel near \(place) at £1.399 — "))
        let nothing = RenderRequest(outcome: .nothingInRange, now: Self.now, fuel: "B7", radiusMiles: 5,
                                    locationAt: found.locationAt)
        #expect(FallbackDialog.render(nothing, appName: "FuelBoard").dialog
            == "I don't have diesel prices for any station within 5 miles of \(place).")
    }
}
