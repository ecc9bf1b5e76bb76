import Foundation
import Messages
import PriceIngest
import SQLite
import TestSupport
import Testing

struct StationStoreTests {
    private let fetched = Date(timeIntervalSinceReferenceDate: 781_300_000.5)

    @Test func replaceRetailer_thenReading_roundTripsEveryStationExactly() throws {
        try withTemporaryDirectory { directory in
            let store = try StationStore(directory: directory)
            let stations = StoreFixtures.stations("asda", count: 60)
            #expect(stations.contains { $0.location == nil && $0.reportedLatitude == nil })
            #expect(stations.contains { $0.location == nil && $0.reportedLatitude == 0 })
            #expect(stations.contains { $0.prices.isEmpty })
            #expect(stations.contains { $0.prices.count == FuelCode.allCases.count })

            try store.replaceRetailer("asda", stations: stations, updated: StoreFixtures.feedTime,
                                      fetchedAt: fetched, source: nil)

            let expected = StoreFixtures.sortedByID(stations)
            #expect(try store.stations(retailer: "asda") == expected)
            #expect(try store.allStations() == expected)
            #expect(try store.stationCount == 60)
        }
    }

    @Test func replaceRetailer_whenOtherRetailersStored_leavesThemUntouched() throws {
        try withTemporaryDirectory { directory in
            let store = try StationStore(directory: directory)
            let tesco = StoreFixtures.stations("tesco", count: 30)
            try store.replaceRetailer("asda", stations: StoreFixtures.stations("asda", count: 20),
                                      updated: StoreFixtures.feedTime, fetchedAt: fetched, source: nil)
            try store.replaceRetailer("tesco", stations: tesco, updated: StoreFixtures.feedTime,
                                      fetchedAt: fetched, source: "https://example.invalid/tesco.json")
            let tescoFeedBefore = try #require(try store.feeds().first { $0.retailer == "tesco" })

            let newAsda = Array(StoreFixtures.stations("asda", count: 50)[10...])
            try store.replaceRetailer("asda", stations: newAsda, updated: fetched, fetchedAt: fetched, source: nil)

            #expect(try store.stations(retailer: "asda") == StoreFixtures.sortedByID(newAsda))
            #expect(try store.stations(retailer: "tesco") == StoreFixtures.sortedByID(tesco))
            #expect(try store.feeds().first { $0.retailer == "tesco" } == tescoFeedBefore)
            #expect(try store.stationCount == 70)
            #expect(try store.allStations() == StoreFixtures.sortedByID(newAsda + tesco))
        }
    }

    @Test func replaceRetailer_eachCall_returnsAStrictlyIncreasingVersion() throws {
        try withTemporaryDirectory { directory in
            let store = try StationStore(directory: directory)
            #expect(store.version == 0)
            var versions: [UInt64] = []
            for (round, retailer) in ["asda", "bp", "asda", "asda", "bp"].enumerated() {
                let version = try store.replaceRetailer(
                    retailer, stations: StoreFixtures.stations(retailer, count: round),
                    updated: StoreFixtures.feedTime, fetchedAt: fetched, source: nil)
                #expect(version == store.version)
                versions.append(version)
            }
            #expect(versions == [1, 2, 3, 4, 5])
            let feeds = try store.feeds()
            #expect(feeds.map(\.retailer) == ["asda", "bp"])
            #expect(feeds.map(\.version) == [4, 5])
        }
    }

    @Test func replaceRetailer_whenSucceeding_recordsTheFeed() throws {
        try withTemporaryDirectory { directory in
            let committed = Date(timeIntervalSinceReferenceDate: 781_400_000.25)
            let store = try StationStore(directory: directory, now: { committed })
            try store.replaceRetailer("shell", stations: StoreFixtures.stations("shell", count: 12),
                                      updated: StoreFixtures.feedTime, fetchedAt: fetched,
                                      source: "https://example.invalid/shell.json")
            let feed = try #require(try store.feeds().first)
            #expect(feed == FeedRecord(retailer: "shell", version: 1, updated: StoreFixtures.feedTime,
                                       fetchedAt: fetched, stationCount: 12, lastSuccessAt: committed,
                                       source: "https://example.invalid/shell.json"))
            #expect(!feed.isFailing)
        }
    }

    @Test func replaceRetailer_withNoStations_removesThatRetailersStations() throws {
        try withTemporaryDirectory { directory in
            let store = try StationStore(directory: directory)
            try store.replaceRetailer("jet", stations: StoreFixtures.stations("jet", count: 5),
                                      updated: StoreFixtures.feedTime, fetchedAt: fetched, source: nil)
            try store.replaceRetailer("jet", stations: [], updated: fetched, fetchedAt: fetched, source: nil)
            #expect(try store.stations(retailer: "jet").isEmpty)
            #expect(try store.feeds().first?.stationCount == 0)
            #expect(store.version == 2)
        }
    }

    @Test func store_whenReopenedAfterClose_keepsStationsFeedsAndVersion() throws {
        try withTemporaryDirectory { directory in
            let stations = StoreFixtures.stations("esso", count: 40)
            let store = try StationStore(directory: directory)
            try store.replaceRetailer("esso", stations: stations, updated: StoreFixtures.feedTime,
                                      fetchedAt: fetched, source: "file.json")
            try store.recordFeedFailure("bp", message: "HTTP 503", at: fetched, source: nil, createsFeed: true)
            let feedsBefore = try store.feeds()
            store.close()

            let reopened = try StationStore(directory: directory)
            #expect(reopened.version == 1)
            #expect(try reopened.allStations() == StoreFixtures.sortedByID(stations))
            #expect(try reopened.feeds() == feedsBefore)
            #expect(try reopened.replaceRetailer("esso", stations: [], updated: fetched, fetchedAt: fetched,
                                                 source: nil) == 2)
        }
    }

    /// The identity replicas tell stores apart by: kept by the file, new with a new file.
    @Test func storeID_isKeptOnReopen_andDiffersForAnotherFile() throws {
        try withTemporaryDirectory { directory in
            let store = try StationStore(directory: directory)
            let id = store.storeID
            store.close()
            #expect(id.count == 16 && id.allSatisfy(\.isHexDigit))
            let reopened = try StationStore(directory: directory)
            #expect(reopened.storeID == id)
            let other = try withTemporaryDirectory { try StationStore(directory: $0).storeID }
            #expect(other != id)
        }
    }

    @Test func store_whenClosed_laterCallsThrow() throws {
        try withTemporaryDirectory { directory in
            let store = try StationStore(directory: directory)
            store.close()
            store.close()
            #expect(throws: SQLiteError.self) { try store.allStations() }
            #expect(throws: SQLiteError.self) {
                try store.replaceRetailer("asda", stations: [], updated: fetched, fetchedAt: fetched, source: nil)
            }
        }
    }

    @Test func store_file_isInWALModeInsideTheGivenDirectory() throws {
        try withTemporaryDirectory { directory in
            let dataDirectory = directory.appendingPathComponent("nested/data")
            let store = try StationStore(directory: dataDirectory)
            try store.replaceRetailer("asda", stations: StoreFixtures.stations("asda", count: 3),
                                      updated: StoreFixtures.feedTime, fetchedAt: fetched, source: nil)
            #expect(store.fileURL == dataDirectory.appendingPathComponent("price-ingest.sqlite"))
            #expect(FileManager.default.fileExists(atPath: store.fileURL.path + "-wal"))
            let inspector = try Database(path: store.fileURL.path)
            #expect(try inspector.journalMode() == "wal")
            #expect(try store.integrityCheck() == ["ok"])
        }
    }

    @Test func replaceRetailer_withThousandsOfStations_storesThemAll() throws {
        try withTemporaryDirectory { directory in
            let store = try StationStore(directory: directory)
            let stations = StoreFixtures.stations("big", count: 20_000)
            try store.replaceRetailer("big", stations: stations, updated: StoreFixtures.feedTime,
                                      fetchedAt: fetched, source: nil)
            try store.replaceRetailer("big", stations: stations, updated: StoreFixtures.feedTime,
                                      fetchedAt: fetched, source: nil)
            #expect(try store.stationCount == 20_000)
            #expect(try store.allStations() == StoreFixtures.sortedByID(stations))
            try store.checkpoint()
            #expect(try store.integrityCheck() == ["ok"])
        }
    }
}
