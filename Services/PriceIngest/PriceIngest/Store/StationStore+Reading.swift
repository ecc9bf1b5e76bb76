import Foundation
import Messages
import SQLite

/// Reading the stored state back.
extension StationStore {
    /// Every retailer the store has heard of, sorted by retailer.
    public func feeds() throws -> [FeedRecord] {
        let query = try database.prepare("""
            SELECT retailer, version, updated, fetched_at, station_count, last_success_at,
                   last_error_at, last_error, last_error_source, source
            FROM feeds ORDER BY retailer
            """)
        var records: [FeedRecord] = []
        try query.forEachRow { row in
            let retailer = row.string(at: 0)
            var version: UInt64?
            if let stored = row.optionalInt64(at: 1) {
                guard let valid = UInt64(exactly: stored) else {
                    throw StationStoreError.corruptRow(stationID: retailer, detail: "negative feed version \(stored)")
                }
                version = valid
            }
            records.append(FeedRecord(
                retailer: retailer, version: version,
                updated: Self.date(row.optionalDouble(at: 2)), fetchedAt: Self.date(row.optionalDouble(at: 3)),
                stationCount: row.int(at: 4), lastSuccessAt: Self.date(row.optionalDouble(at: 5)),
                lastErrorAt: Self.date(row.optionalDouble(at: 6)), lastError: row.optionalString(at: 7),
                lastErrorSource: row.optionalString(at: 8), source: row.optionalString(at: 9)))
        }
        return records
    }

    /// What the store knows about `retailer`'s feed, or nil if it has never heard of it.
    public func feed(_ retailer: String) throws -> FeedRecord? {
        try feeds().first { $0.retailer == retailer }
    }

    /// One retailer's stations, sorted by id.
    public func stations(retailer: String) throws -> [Station] {
        try selectRetailer.bind(retailer, at: 1)
        return try readStations(selectRetailer)
    }

    /// Every stored station, sorted by id.
    public func allStations() throws -> [Station] {
        try readStations(selectAll)
    }

    /// How many stations are stored, across all retailers.
    public var stationCount: Int {
        get throws {
            try database.prepare("SELECT count(*) FROM stations").firstRow { $0.int(at: 0) } ?? 0
        }
    }

    private func readStations(_ query: Statement) throws -> [Station] {
        var stations: [Station] = []
        try query.forEachRow { row in
            stations.append(try StationRowCoding.station(from: row))
        }
        return stations
    }

    private static func date(_ stored: Double?) -> Date? {
        stored.map { Date(timeIntervalSinceReferenceDate: $0) }
    }
}
