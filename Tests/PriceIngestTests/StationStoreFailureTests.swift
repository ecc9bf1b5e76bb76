import Foundation
import Messages
import PriceIngest
import SQLite
import TestSupport
import Testing

struct StationStoreFailureTests {
    private let fetched = Date(timeIntervalSinceReferenceDate: 781_300_000.5)

    /// A store holding two retailers, and everything it returns, to compare after a failure.
    private struct Snapshot: Equatable {
        var version: UInt64
        var stations: [Station]
        var feeds: [FeedRecord]

        init(_ store: StationStore) throws {
            version = store.version
            stations = try store.allStations()
            feeds = try store.feeds()
        }
    }

    private func seededStore(_ directory: URL) throws -> StationStore {
        let store = try StationStore(directory: directory)
        try store.replaceRetailer("asda", stations: StoreFixtures.stations("asda", count: 25),
                                  updated: StoreFixtures.feedTime, fetchedAt: fetched, source: "asda.json")
        try store.replaceRetailer("tesco", stations: StoreFixtures.stations("tesco", count: 25),
                                  updated: StoreFixtures.feedTime, fetchedAt: fetched, source: nil)
        return store
    }

    @Test func replaceRetailer_whenAnInsertFailsMidway_changesNothing() throws {
        try withTemporaryDirectory { directory in
            let store = try seededStore(directory)
            let before = try Snapshot(store)
            // 30 new asda stations, then one whose id already belongs to tesco: the primary key
            // refuses it after the delete and the first inserts have run.
            var clash = StoreFixtures.station("asda", 99)
            clash.id = "tesco/S3"
            let stations = StoreFixtures.stations("asda", count: 30).map { station -> Station in
                var renamed = station
                renamed.name = "new " + station.name
                return renamed
            } + [clash]

            let error = try #require(throws: StationStoreError.self) {
                try store.replaceRetailer("asda", stations: stations, updated: fetched, fetchedAt: fetched,
                                          source: nil)
            }
            guard case .stationRejected(let stationID, let reason) = error else {
                Issue.record("expected stationRejected, got \(error)")
                return
            }
            #expect(stationID == "tesco/S3")
            #expect(reason.isConstraintViolation)
            #expect(try Snapshot(store) == before)

            store.close()
            #expect(try Snapshot(StationStore(directory: directory)) == before)
        }
    }

    @Test func replaceRetailer_whenOneFeedRepeatsAnID_changesNothing() throws {
        try withTemporaryDirectory { directory in
            let store = try seededStore(directory)
            let before = try Snapshot(store)
            let stations = StoreFixtures.stations("asda", count: 10) + [StoreFixtures.station("asda", 4)]
            #expect(throws: StationStoreError.self) {
                try store.replaceRetailer("asda", stations: stations, updated: fetched, fetchedAt: fetched,
                                          source: nil)
            }
            #expect(try Snapshot(store) == before)
            #expect(try store.replaceRetailer("asda", stations: [], updated: fetched, fetchedAt: fetched,
                                              source: nil) == before.version + 1)
        }
    }

    @Test func replaceRetailer_whenAStationBelongsToAnotherRetailer_throwsMismatchAndChangesNothing() throws {
        try withTemporaryDirectory { directory in
            let store = try seededStore(directory)
            let before = try Snapshot(store)
            let stations = StoreFixtures.stations("asda", count: 3) + [StoreFixtures.station("bp", 1)]
            let error = try #require(throws: StationStoreError.self) {
                try store.replaceRetailer("asda", stations: stations, updated: fetched, fetchedAt: fetched,
                                          source: nil)
            }
            #expect(error.description.contains("bp/S1"))
            #expect(try Snapshot(store) == before)
        }
    }

    @Test func replaceRetailer_whenACoordinateIsNaN_throwsAndChangesNothing() throws {
        try withTemporaryDirectory { directory in
            let store = try seededStore(directory)
            let before = try Snapshot(store)
            var station = StoreFixtures.station("asda", 1)
            station.reportedLongitude = .nan
            let error = try #require(throws: StationStoreError.self) {
                try store.replaceRetailer("asda", stations: [station], updated: fetched, fetchedAt: fetched,
                                          source: nil)
            }
            #expect(error.description.contains("reportedLongitude"))
            #expect(try Snapshot(store) == before)
        }
    }

    @Test func replaceRetailer_whenRetailerIsEmpty_throws() throws {
        try withTemporaryDirectory { directory in
            let store = try StationStore(directory: directory)
            #expect(throws: StationStoreError.self) {
                try store.replaceRetailer("", stations: [], updated: fetched, fetchedAt: fetched, source: nil)
            }
            #expect(store.version == 0)
        }
    }

    @Test func recordFeedFailure_leavesStationsAndVersionUntouched() throws {
        try withTemporaryDirectory { directory in
            let store = try seededStore(directory)
            let before = try Snapshot(store)
            let failedAt = fetched.addingTimeInterval(600)
            try store.recordFeedFailure("asda", message: "HTTP 503 from feed", at: failedAt,
                                        source: "https://example.invalid/asda.json", createsFeed: true)

            #expect(store.version == before.version)
            #expect(try store.allStations() == before.stations)
            var expectedAsda = try #require(before.feeds.first { $0.retailer == "asda" })
            expectedAsda.lastErrorAt = failedAt
            expectedAsda.lastError = "HTTP 503 from feed"
            expectedAsda.lastErrorSource = "https://example.invalid/asda.json"
            let feeds = try store.feeds()
            #expect(feeds.first { $0.retailer == "asda" } == expectedAsda)
            #expect(feeds.first { $0.retailer == "asda" }?.isFailing == true)
            #expect(feeds.first { $0.retailer == "tesco" } == before.feeds.first { $0.retailer == "tesco" })
        }
    }

    @Test func recordFeedFailure_forAnUnknownRetailer_createsAFailingFeedWithoutStations() throws {
        try withTemporaryDirectory { directory in
            let store = try StationStore(directory: directory)
            try store.recordFeedFailure("mfg", message: "not JSON", at: fetched, source: nil, createsFeed: true)
            let feed = try #require(try store.feeds().first)
            #expect(feed == FeedRecord(retailer: "mfg", lastErrorAt: fetched, lastError: "not JSON"))
            #expect(feed.isFailing)
            #expect(store.version == 0)
            #expect(try store.stationCount == 0)
        }
    }

    @Test func recordFeedFailure_withoutCreatingFeeds_updatesOnlyAKnownRetailer() throws {
        try withTemporaryDirectory { directory in
            let store = try seededStore(directory)
            let before = try store.feeds()
            try store.recordFeedFailure("mfg", message: "not JSON", at: fetched, source: nil, createsFeed: false)
            #expect(try store.feeds() == before)
            try store.recordFeedFailure("asda", message: "no stations", at: fetched.addingTimeInterval(600), source: nil,
                                        createsFeed: false)
            let asda = try #require(try store.feeds().first { $0.retailer == "asda" })
            #expect(asda.isFailing && asda.lastError == "no stations")
            #expect(try store.feeds().count == before.count)
        }
    }

    @Test func replaceRetailer_afterAFailure_keepsTheErrorButIsNoLongerFailing() throws {
        try withTemporaryDirectory { directory in
            let store = try StationStore(directory: directory)
            try store.recordFeedFailure("bp", message: "timeout", at: fetched, source: nil, createsFeed: true)
            let later = fetched.addingTimeInterval(300)
            try store.replaceRetailer("bp", stations: StoreFixtures.stations("bp", count: 2),
                                      updated: later, fetchedAt: later, source: nil)
            let feed = try #require(try store.feeds().first)
            #expect(feed.lastError == "timeout")
            #expect(feed.version == 1)
            #expect(!feed.isFailing)
        }
    }

    @Test func store_whenFileIsEmpty_migratesToTheCurrentSchema() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent(StationStore.fileName)
            #expect(FileManager.default.createFile(atPath: file.path, contents: Data()))
            let store = try StationStore(directory: directory)
            #expect(store.version == 0)
            #expect(try store.feeds().isEmpty)
            #expect(try store.stationCount == 0)
            store.close()
            let inspector = try Database(path: file.path)
            #expect(try inspector.userVersion() == 3)
            #expect(try inspector.integrityCheck() == ["ok"])
        }
    }

    /// A file written before stores had an identity (and feeds a fingerprint) gets one, and keeps its
    /// stations and version.
    @Test func store_whenFileIsFromSchemaOne_gainsAnIdentityAndKeepsItsContents() throws {
        try withTemporaryDirectory { directory in
            let stations = StoreFixtures.stations("esso", count: 3)
            let store = try StationStore(directory: directory)
            try store.replaceRetailer("esso", stations: stations, updated: StoreFixtures.feedTime,
                                      fetchedAt: StoreFixtures.feedTime, source: nil)
            store.close()
            let inspector = try Database(path: directory.appendingPathComponent(StationStore.fileName).path)
            try inspector.execute("ALTER TABLE store_state DROP COLUMN store_id")
            try inspector.execute("ALTER TABLE feeds DROP COLUMN content_hash")
            try inspector.setUserVersion(1)
            inspector.close()

            let migrated = try StationStore(directory: directory)
            #expect(migrated.storeID.count == 16)
            #expect(migrated.version == 1)
            #expect(try migrated.allStations() == StoreFixtures.sortedByID(stations))
        }
    }

    @Test func store_whenSchemaIsNewerThanThisBuild_refusesToOpen() throws {
        try withTemporaryDirectory { directory in
            let inspector = try Database(path: directory.appendingPathComponent(StationStore.fileName).path)
            try inspector.setUserVersion(99)
            inspector.close()
            let error = try #require(throws: StationStoreError.self) { try StationStore(directory: directory) }
            guard case .unsupportedSchema(let found, _) = error else {
                Issue.record("expected unsupportedSchema, got \(error)")
                return
            }
            #expect(found == 99)
        }
    }
}

/// A store damaged on disk (pages overwritten) is refused at the open with SQLite's findings: it
/// served some retailers and failed others with "internal error" (operator QA).
struct DamagedStationStoreTests {
    @Test func aStoreWithOverwrittenPages_isRefusedAtTheOpen() throws {
        try withTemporaryDirectory { directory in
            do {
                let store = try StationStore(directory: directory)
                for retailer in ["asda", "tesco", "jet"] {
                    try store.replaceRetailer(retailer, stations: StoreFixtures.stations(retailer, count: 400),
                                              updated: StoreFixtures.feedTime, fetchedAt: StoreFixtures.feedTime,
                                              source: nil)
                }
                try store.checkpoint()
                store.close()
            }
            let file = directory.appendingPathComponent(StationStore.fileName)
            let pageSize = 4096
            let size = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int)
            #expect(size > 40 * pageSize, "too small a store to damage: \(size) bytes")
            let handle = try FileHandle(forWritingTo: file)
            var random = SystemRandomNumberGenerator()
            try handle.seek(toOffset: UInt64(20 * pageSize))
            try handle.write(contentsOf: Data((0..<(15 * pageSize)).map { _ in UInt8.random(in: 0...255, using: &random) }))
            try handle.close()
            let error = try #require(throws: DamagedDatabase.self) { try StationStore(directory: directory) }
            #expect(error.path == file.path)
            #expect(error.description.contains("is damaged (SQLite's quick check:"), "\(error)")
        }
    }
}
