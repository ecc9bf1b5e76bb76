import Foundation
import IntentRouter
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

    @Test func found_speaksStationPriceAndDistanceAndCarriesTheFacts() {
        let request = RenderRequest(outcome: .found, now: Date(timeIntervalSince1970: 1_760_000_000), fuel: "B7",
                                    station: Self.station, pricePence: 139.9, distanceMiles: 2.34,
                                    updated: Date(timeIntervalSince1970: 1_760_000_000 - 7200))
        let reply = FallbackDialog.render(request, appName: "FuelBoard")
        #expect(reply.dialog == "The cheapest diesel near you is 139.9p a litre at Tesco Selby, 2.3 miles away.")
        #expect(reply.snippet?.id == "tesco/1")
        #expect(reply.snippet?.postcode == "YO8 8NA")
        #expect(reply.snippet?.pricePence == 139.9)
        #expect(reply.snippet?.stale == false)
        #expect(reply.opensURL == nil)
    }

    @Test func directions_carryAMapsURL() {
        let request = RenderRequest(outcome: .directions, fuel: "E10", station: Self.station, pricePence: 135,
                                    distanceMiles: 1, updated: Date())
        let reply = FallbackDialog.render(request, appName: "FuelBoard")
        #expect(reply.opensURL == "https://maps.apple.com/?daddr=53.77,-1.06&dirflg=d")
        #expect(reply.dialog.contains("1 mile away"))
    }

    @Test func unsupportedFuel_namesTheAppAndTheWord() {
        let reply = FallbackDialog.render(RenderRequest(outcome: .unsupportedFuel, word: "hydrogen"),
                                          appName: "PumpPal")
        #expect(reply.dialog.hasPrefix("PumpPal doesn't have prices for hydrogen"))
    }

    @Test func nothingInRange_usesTheUsersUnit() {
        let request = RenderRequest(outcome: .nothingInRange, fuel: "B7", radiusMiles: 5, unit: .km)
        let reply = FallbackDialog.render(request, appName: "FuelBoard")
        #expect(reply.dialog == "I couldn't find any diesel within 8 kilometres of you.")
    }
}
