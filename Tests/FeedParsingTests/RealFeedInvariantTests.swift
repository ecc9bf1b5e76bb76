import Foundation
import Testing
import FeedParsing
import Messages
import TestSupport

/// Rules every real capture must satisfy after parsing.
@Suite(.enabled(if: SharedData.isPresent, Comment(rawValue: SharedData.absentMessage)))
struct RealFeedInvariantTests {
    @Test func realData_holdsEveryExpectedCapture() {
        // 9 single captures + 12 + 10 snapshot files.
        #expect(RealFeeds.allFiles.count >= 31)
        #expect(RealFeeds.allFiles.contains("uk-cma-snapshot-2025-10-09/asda.json"))
        #expect(!RealFeeds.allFiles.contains { $0.hasSuffix(".jsonl") })
    }

    @Test(arguments: RealFeeds.allFiles)
    func realFeed_keepsEveryRecordWithPricesInRange(file: String) throws {
        let feed = try RealFeeds.parse(file)
        let raw = try RealFeeds.rawStations(file)
        #expect(feed.acceptedCount + feed.refusedCount == raw.count)
        #expect(feed.refusedCount == 0)
        for station in feed.stations {
            for (fuel, price) in station.prices {
                #expect((800..<3_000).contains(price.tenths), "\(station.id) \(fuel.rawValue) \(price)")
            }
        }
    }

    /// The two Ascona stations whose coordinates are wrong and site ids right (DATA.md): one in
    /// Sunderland placed in Galloway, one in Marlborough placed near Consett.
    static let placedBySiteId: Set<String> = ["SR3 3ND", "SN8 1PU"]

    @Test(arguments: RealFeeds.allFiles)
    func realFeed_locationIsNilExactlyWhenReportedCoordinatesAreUnusable(file: String) throws {
        let feed = try RealFeeds.parse(file)
        for station in feed.stations {
            let lat = station.reportedLatitude, lng = station.reportedLongitude
            if let lat, let lng, !(lat == 0 && lng == 0), (49.8...61).contains(lat), (-8.7...1.9).contains(lng) {
                // Where its site id says for exactly the two stations DATA.md names; else as reported.
                let expected = feed.retailer == "ascona-group" && Self.placedBySiteId.contains(station.postcode)
                    ? Geohash.decode(station.siteId) : Coordinate(lat: lat, lng: lng)
                #expect(station.location == expected, "\(station.id) \(station.postcode)")
            } else {
                #expect(station.location == nil, "\(station.id)")
            }
        }
        let unusable = feed.stations.count - feed.locatedCount
        #expect(unusable == feed.count(.badCoordinates) + feed.count(.swappedCoordinates) + feed.count(.outsideUK))
    }

    @Test(arguments: RealFeeds.allFiles)
    func realFeed_givesUniqueIdsAndShortNonEmptyNames(file: String) throws {
        let feed = try RealFeeds.parse(file)
        #expect(Set(feed.stations.map(\.id)).count == feed.stations.count)
        for station in feed.stations {
            #expect(!station.name.isEmpty && station.name.count <= 32, "\(station.id): \(station.name)")
            #expect(!station.brand.isEmpty)
            #expect(station.id.hasPrefix("\(feed.retailer)/\(station.siteId)"))
            #expect(station.siteId == station.siteId.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(station.updated == feed.updated)
        }
    }
}
