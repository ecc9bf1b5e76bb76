import Foundation
import Messages
import Testing
import SampleFeeds

struct FeedShapeTests {
    private static let stationKeys: Set<String> = ["site_id", "brand", "address", "postcode", "location", "prices"]
    private static let fuelKeys: Set<String> = ["E10", "E5", "B7", "SDV"]

    @Test(arguments: [false, true])
    func feeds_whenParsedWithJSONSerialization_haveTheCMAEnvelope(quirks: Bool) throws {
        let feeds = quirks ? FeedFixtures.demo : FeedFixtures.demoClean
        #expect(!feeds.isEmpty)
        let stamp = try Regex(#"^\d{2}/\d{2}/\d{4} \d{2}:\d{2}:\d{2}$"#)
        for feed in feeds {
            let envelope = try FeedReader.envelope(feed)
            #expect(Set(envelope.keys) == ["last_updated", "stations"], "\(feed.retailer)")
            let lastUpdated = try #require(envelope["last_updated"] as? String)
            #expect(lastUpdated.wholeMatch(of: stamp) != nil, "\(feed.retailer): \(lastUpdated)")
            for station in try FeedReader.stations(feed) {
                #expect(Set(station.object.keys) == Self.stationKeys)
                #expect(Set(station.location?.keys.map { $0 } ?? []) == ["latitude", "longitude"])
                #expect(Set(station.prices.keys).isSubset(of: Self.fuelKeys))
                #expect(station.siteId?.trimmingCharacters(in: .whitespaces).count == 12)
                #expect(station.address?.isEmpty == false && station.postcode?.isEmpty == false)
            }
        }
    }

    @Test func feeds_whenClean_putEveryStationInsideTheUKBox() throws {
        let stations = try FeedReader.stations(FeedFixtures.demoClean) + FeedFixtures.largeStations
        #expect(stations.count == 103_000)
        let outside = stations.filter { station in
            guard let coordinate = station.numericCoordinate else { return true }
            return !UKBounds.contains(latitude: coordinate.latitude, longitude: coordinate.longitude)
        }
        #expect(outside.isEmpty, "\(outside.prefix(5).map { "\($0.retailer) \($0.siteId ?? "")" })")
    }

    @Test func feeds_whenQuirky_stayInsideTheUKBoxExceptZeroCoordinates() throws {
        var zeros = 0
        for station in try FeedReader.stations(FeedFixtures.demo) {
            let latitude = station.location?["latitude"], longitude = station.location?["longitude"]
            let values = [latitude, longitude].compactMap { value -> Double? in
                if let text = value as? String { return Double(text) }
                return (value as? NSNumber)?.doubleValue
            }
            #expect(values.count == 2)
            guard values.count == 2 else { continue }
            if values == [0, 0] {
                zeros += 1
            } else {
                #expect(UKBounds.contains(latitude: values[0], longitude: values[1]))
            }
        }
        #expect(zeros >= 1)
    }

    @Test func siteIds_whenClean_areTheGeohashOfTheWrittenCoordinates() throws {
        for station in try FeedReader.stations(FeedFixtures.demoClean) {
            let coordinate = try #require(station.numericCoordinate)
            #expect(station.siteId == Geohash.encode(latitude: coordinate.latitude, longitude: coordinate.longitude))
        }
    }

    @Test func postcodesAndAddresses_whenClean_lookLikeUKOnes() throws {
        let postcode = try Regex(#"^[A-Z]{1,2}[0-9]{1,2} [0-9][ABD-HJLNP-UW-Z]{2}$"#)
        let stations = try FeedReader.stations(FeedFixtures.demoClean)
        for station in stations {
            #expect(station.postcode?.wholeMatch(of: postcode) != nil, "\(station.postcode ?? "nil")")
        }
        let towns = stations.compactMap(\.address).filter { $0.contains("Selby") || $0.contains("SELBY") }
        #expect(!towns.isEmpty)
        let tesco = stations.filter { $0.retailer == "tesco" }.compactMap(\.address)
        #expect(tesco.allSatisfy { $0.hasPrefix("Tesco ") && !$0.contains(",") })
        let esso = stations.filter { $0.retailer == "esso-tesco-alliance" }.compactMap(\.address)
        #expect(esso.allSatisfy { $0 == $0.uppercased() })
        let moto = stations.filter { $0.retailer == "moto" }.compactMap(\.address)
        #expect(!moto.isEmpty && moto.allSatisfy { $0.contains("Motorway") })
    }

    @Test func rontecFeed_whenWritten_usesItsReversedKeyOrder() throws {
        let feed = try #require(FeedFixtures.demoClean.first { $0.retailer == "rontec" })
        let text = String(decoding: feed.json, as: UTF8.self)
        #expect(text.hasPrefix("{\"stations\":["))
        #expect(FeedReader.stationLines(feed).allSatisfy { $0.hasPrefix("{\"location\":{\"longitude\":") })
    }
}
