import Foundation
import Messages
import PriceIngest
import SQLite
import TestSupport
import Testing

/// A row damaged on disk or edited by hand may hold text where a number belongs. SQLite hands such a
/// value to a number read as 0: a station at 0°N 0°E, a price of nothing. Reading refuses the row.
struct DamagedStationRowTests {
    private func storeWithOneStation(_ directory: URL, damage: String) throws -> StationStore {
        let station = StoreFixtures.station("esso", 1)
        let store = try StationStore(directory: directory)
        try store.replaceRetailer("esso", stations: [station], updated: StoreFixtures.feedTime,
                                  fetchedAt: StoreFixtures.feedTime, source: nil)
        let editor = try Database(path: store.fileURL.path)
        try editor.execute(damage)
        editor.close()
        return store
    }

    private func expectCorrupt(_ damage: String, naming detail: String) throws {
        try withTemporaryDirectory { directory in
            let store = try storeWithOneStation(directory, damage: damage)
            let error = try #require(throws: StationStoreError.self) { try store.stations(retailer: "esso") }
            guard case .corruptRow(let stationID, let found) = error else {
                Issue.record("expected corruptRow, got \(error)")
                return
            }
            #expect(stationID == "esso/S1")
            #expect(found.contains(detail), "\(found)")
        }
    }

    @Test func reading_whenALatitudeIsText_refusesTheRow() throws {
        try expectCorrupt("UPDATE stations SET lat = 'fifty-one'", naming: "lat is not a number")
    }

    @Test func reading_whenALatitudeIsOffTheEarth_refusesTheRow() throws {
        try expectCorrupt("UPDATE stations SET lat = 451.5", naming: "not on Earth")
    }

    @Test func reading_whenAPriceIsText_refusesTheRow() throws {
        try expectCorrupt("UPDATE stations SET price_e10 = 'cheap'", naming: "E10 price is not a number")
    }

    @Test func reading_whenAPriceIsABlob_refusesTheRow() throws {
        try expectCorrupt("UPDATE stations SET price_b7 = x'00ff'", naming: "B7 price is not a number")
    }

    @Test func reading_whenTheUpdateTimeIsText_refusesTheRow() throws {
        try expectCorrupt("UPDATE stations SET updated = 'yesterday'", naming: "updated is not a number")
    }

    @Test func reading_whenAPriceIsOutOfRange_refusesTheRow() throws {
        try expectCorrupt("UPDATE stations SET price_e5 = 99999999999", naming: "E5 price 99999999999 out of range")
    }

    @Test func reading_whenNumbersAreWholeOrReal_readsThemAsStored() throws {
        try withTemporaryDirectory { directory in
            // An INTEGER in a REAL column (a hand edit writing 52) is still a number.
            let store = try storeWithOneStation(directory, damage: "UPDATE stations SET lat = 52, price_e10 = 1399")
            let station = try #require(try store.stations(retailer: "esso").first)
            #expect(station.location?.lat == 52)
            #expect(station.prices[.e10] == Price(tenths: 1_399))
        }
    }
}
