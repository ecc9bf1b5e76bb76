import Foundation
import Testing
import Messages
import SampleFeeds

struct StationModelTests {
    private static let normalisedBrands: Set<String> = [
        "Asda", "Asda Express", "Tesco", "Sainsbury's", "Morrisons", "BP", "Esso", "Shell", "Texaco", "JET",
        "Valero", "Murco", "Co-op", "Essar",
    ]

    @Test func stations_whenClean_matchWhatTheFeedSays() throws {
        let generator = try SampleFeedGenerator(options: .scale(stations: 1_500, seed: 31))
        for index in 0..<generator.feedCount {
            let feed = generator.feed(at: index)
            let parsed = try FeedReader.stations(feed)
            let stations = generator.stations(inFeedAt: index)
            #expect(parsed.count == stations.count)
            for (station, raw) in zip(stations, parsed) {
                #expect(station.retailer == feed.retailer)
                #expect(station.siteId == raw.siteId)
                #expect(station.id == "\(feed.retailer)/\(raw.siteId ?? "")")
                #expect(station.postcode == raw.postcode)
                #expect(station.updated == feed.lastUpdated)
                let coordinate = try #require(raw.numericCoordinate)
                #expect(station.location == Coordinate(lat: coordinate.latitude, lng: coordinate.longitude))
                #expect(station.prices == raw.prices.reduce(into: [:]) { result, entry in
                    if let fuel = FuelCode(code: entry.key) { result[fuel] = Price(pence: entry.value) }
                })
                #expect(Self.normalisedBrands.contains(station.brand), "\(station.brand)")
                if raw.brand == "TESCO" || raw.brand == "ESSO" {
                    #expect(station.brand == (raw.brand == "TESCO" ? "Tesco" : "Esso"))
                }
            }
        }
    }

    @Test func stations_whenQuirky_holdOnlyWhatAParserCouldTrust() throws {
        let generator = try SampleFeedGenerator(options: .demo(stations: 3_000))
        let stations = generator.stations()
        #expect(Set(stations.map(\.id)).count == stations.count)
        #expect(stations.contains { $0.id.hasSuffix("#2") })
        #expect(stations.contains { $0.location == nil && $0.reportedLatitude == 0 })
        for station in stations {
            #expect(station.siteId == station.siteId.trimmingCharacters(in: .whitespaces))
            #expect(station.prices.allSatisfy { $0.price.tenths >= 1_000 && $0.price.tenths < 3_000 })
            #expect(!station.address.contains("\u{00A0}"))
            if let location = station.location {
                #expect(UKBounds.contains(latitude: location.lat, longitude: location.lng))
            }
        }
    }
}
