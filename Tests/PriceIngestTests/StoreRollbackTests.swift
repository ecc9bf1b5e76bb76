import Foundation
import Messages
import PriceIngest
import TestSupport
import Testing

/// A store put back from an older copy takes a new identity, so replicas reload everything
/// rather than keep prices the restored store no longer has at a version number it reuses.
struct StoreRollbackTests {
    private let fetched = Date(timeIntervalSinceReferenceDate: 781_300_000.5)

    private func ingest(_ store: StationStore, _ retailer: String) throws -> UInt64 {
        try store.replaceRetailer(retailer, stations: StoreFixtures.stations(retailer, count: 5),
                                  updated: StoreFixtures.feedTime, fetchedAt: fetched, source: nil)
    }

    @Test func aDatabasePutBackFromAnOlderCopy_takesANewStoreID() throws {
        try withTemporaryDirectory { directory in
            let backup = directory.appendingPathComponent("backup")
            try FileManager.default.createDirectory(at: backup, withIntermediateDirectories: true)
            let files = ["price-ingest.sqlite", "price-ingest.sqlite-wal"]
            var store: StationStore? = try StationStore(directory: directory)
            let original = try #require(store?.storeID)
            #expect(try ingest(store!, "tesco") == 1)
            store?.close()
            store = nil
            for file in files where FileManager.default.fileExists(atPath: directory.appendingPathComponent(file).path) {
                try FileManager.default.copyItem(at: directory.appendingPathComponent(file),
                                                 to: backup.appendingPathComponent(file))
            }
            store = try StationStore(directory: directory)
            #expect(store?.storeID == original, "a restart keeps the identity")
            #expect(store?.rolledBack == nil)
            #expect(try ingest(store!, "tesco") == 2)
            store?.close()
            store = nil
            for file in files + ["price-ingest.sqlite-shm"] {
                try? FileManager.default.removeItem(at: directory.appendingPathComponent(file))
                if FileManager.default.fileExists(atPath: backup.appendingPathComponent(file).path) {
                    try FileManager.default.copyItem(at: backup.appendingPathComponent(file),
                                                     to: directory.appendingPathComponent(file))
                }
            }
            let restored = try StationStore(directory: directory)
            #expect(restored.version == 1)
            #expect(restored.rolledBack?.served == 2 && restored.rolledBack?.found == 1)
            #expect(restored.storeID != original, "the restored copy is another store to replicas")
            let renewed = restored.storeID
            restored.close()
            let again = try StationStore(directory: directory)
            #expect(again.storeID == renewed && again.rolledBack == nil, "the new identity is kept")
        }
    }

    /// A database deleted or emptied (a failed copy) was taken silently as a new empty store.
    @Test func aDatabaseLostOrEmptied_isNoticedAsAnotherStore() throws {
        try withTemporaryDirectory { directory in
            let store = try StationStore(directory: directory)
            let original = store.storeID
            #expect(try ingest(store, "tesco") == 1)
            store.close()
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(at: directory.appendingPathComponent("price-ingest.sqlite" + suffix))
            }
            #expect(FileManager.default.createFile(atPath: directory.appendingPathComponent("price-ingest.sqlite").path,
                                           contents: Data()))
            let fresh = try StationStore(directory: directory)
            #expect(fresh.version == 0)
            #expect(fresh.replaced?.storeID == original && fresh.replaced?.version == 1)
        }
    }
}
