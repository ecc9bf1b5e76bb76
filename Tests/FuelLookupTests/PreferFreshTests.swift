import Foundation
@testable import FuelLookup
import Messages
import Testing

/// `preferFresh`: a feed that stopped updating does not win "cheapest" over up-to-date feeds.
struct PreferFreshTests {
    static let point = Coordinate(lat: 53.7838, lng: -1.0664)
    static let now = StationFixtures.now
    static let nearby = Coordinate(lat: 53.79, lng: -1.07)
    static let farAway = Coordinate(lat: 53.95, lng: -1.07)

    private static func handler(_ stations: [Station]) -> LookupHandler {
        let holder = IndexHolder()
        holder.swap(PriceIndex(stations: stations), version: 1)
        return LookupHandler(holder: holder)
    }

    private static func cheapest(_ stations: [Station], preferFresh: Bool?, radius: Double = 5) throws -> [String] {
        let request = LookupRequest(fuel: "E10", lat: point.lat, lng: point.lng, radiusMiles: radius, limit: 1,
                                    preferFresh: preferFresh)
        return try handler(stations).cheapest(request, now: now).results.map(\.station.id)
    }

    /// A retailer 10 days behind the others, cheapest on paper.
    static func lagging(at location: Coordinate = nearby) -> Station {
        TestStations.make(id: "old/1", location: location, prices: [.e10: Price(tenths: 1200)], retailer: "old",
                          updated: now - 10 * 86_400)
    }

    static func upToDate(at location: Coordinate = nearby, tenths: Int32 = 1399) -> Station {
        TestStations.make(id: "new/1", location: location, prices: [.e10: Price(tenths: tenths)], retailer: "new",
                          updated: now - 3600)
    }

    @Test func aLaggingFeedsPrice_givesWayToTheCheapestUpToDateOne() throws {
        #expect(try Self.cheapest([Self.lagging(), Self.upToDate()], preferFresh: nil) == ["old/1"])
        #expect(try Self.cheapest([Self.lagging(), Self.upToDate()], preferFresh: false) == ["old/1"])
        #expect(try Self.cheapest([Self.lagging(), Self.upToDate()], preferFresh: true) == ["new/1"])
    }

    /// The price passed over is in the reply, for the answer to name it with its age ("cheapest"
    /// was not the cheapest, unsaid: voice QA); none is when nothing was passed over.
    @Test func thePricePassedOver_isInTheReply() throws {
        let request = LookupRequest(fuel: "E10", lat: Self.point.lat, lng: Self.point.lng, radiusMiles: 5, limit: 1,
                                    preferFresh: true)
        let answer = try Self.handler([Self.lagging(), Self.upToDate()]).cheapestAnswer(request, now: Self.now)
        let reply = answer.reply
        #expect(reply.results.map(\.station.id) == ["new/1"])
        #expect(reply.passedOver?.station.id == "old/1" && reply.passedOver?.pricePence == 120)
        #expect(reply.passedOver?.updated == Self.now - 10 * 86_400)
        // Written by hand as the encoder writes it, and read back.
        let written = LookupReplyWriter.write(answer)
        #expect(written == Array(try JSONCoding.encode(reply)), "\(String(decoding: written, as: UTF8.self))")
        let read = try JSONCoding.decode(LookupReply.self, from: Data(written))
        #expect(read.passedOver == reply.passedOver)
        let plain = try Self.handler([Self.upToDate()]).cheapestAnswer(request, now: Self.now).reply
        #expect(plain.passedOver == nil)
    }

    @Test func withNoUpToDatePriceInRange_theLaggingOneIsStillTheAnswer() throws {
        let stations = [Self.lagging(), Self.upToDate(at: Self.farAway)]
        #expect(try Self.cheapest(stations, preferFresh: true, radius: 5) == ["old/1"])
    }

    /// Every feed equally old (a snapshot, a bench set): nothing lags, the cheapest stands.
    @Test func feedsAllEquallyOld_areNotPassedOver() throws {
        var stations = [Self.lagging()]
        stations.append(TestStations.make(id: "new/1", location: Self.nearby, prices: [.e10: Price(tenths: 1399)],
                                          retailer: "new", updated: Self.now - 10 * 86_400 + 3600))
        #expect(try Self.cheapest(stations, preferFresh: true) == ["old/1"])
    }

    /// A feed dated a week ahead (a day/month swap) does not make every honest feed "lagging".
    @Test func aFeedDatedAhead_doesNotMakeTheCurrentOnesLag() throws {
        let ahead = TestStations.make(id: "ahead/1", location: Self.nearby, prices: [.e10: Price(tenths: 1599)],
                                      retailer: "ahead", updated: Self.now + 7 * 86_400)
        #expect(try Self.cheapest([ahead, Self.upToDate()], preferFresh: true) == ["new/1"])
        #expect(try Self.cheapest([ahead, Self.upToDate(), Self.lagging()], preferFresh: true) == ["new/1"])
    }

    @Test func aFeedBehindByLessThanTheLag_isNotPassedOver() throws {
        let recent = TestStations.make(id: "old/1", location: Self.nearby, prices: [.e10: Price(tenths: 1200)],
                                       retailer: "old", updated: Self.now - 47 * 3600)
        #expect(try Self.cheapest([recent, Self.upToDate()], preferFresh: true) == ["old/1"])
    }
}
