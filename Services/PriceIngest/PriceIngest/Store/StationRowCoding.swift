import Foundation
import Messages
import SQLite

/// How a `Station` maps onto a row of the `stations` table, in one place for writes and reads.
enum StationRowCoding {
    /// Every column, in the order both the INSERT binds and the SELECT reads them.
    static let columns: [String] = [
        "id", "retailer", "site_id", "brand", "name", "address", "postcode",
        "lat", "lng", "reported_lat", "reported_lng", "updated",
    ] + FuelCode.allCases.map(priceColumn)

    /// Index of the first price column; fuels follow in `FuelCode.allCases` order.
    private static let firstPriceColumn = 12

    static let insertSQL = """
        INSERT INTO stations (\(columns.joined(separator: ", ")))
        VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))
        """

    static let selectSQL = "SELECT \(columns.joined(separator: ", ")) FROM stations"

    /// The price column of a fuel. A new `FuelCode` case stops this compiling until a
    /// migration adds its column.
    static func priceColumn(_ fuel: FuelCode) -> String {
        switch fuel {
        case .e10: "price_e10"
        case .e5: "price_e5"
        case .b7: "price_b7"
        case .sdv: "price_sdv"
        }
    }

    /// Indices of `stations` in id order. Inserting in primary-key order appends to the B-tree
    /// instead of touching pages all over it: 1M shuffled stations took 18 s of CPU unsorted,
    /// 8 s sorted (sort included). String order equals SQLite's byte order for NFC text; for any
    /// other text the order is only less helpful, never wrong.
    static func insertionOrder(_ stations: [Station]) -> [Int] {
        stations.enumerated().map { ($0.element.id, $0.offset) }.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// Binds every column of `station` to a statement prepared from `insertSQL`.
    static func bind(_ station: Station, to insert: Statement) throws {
        try insert.bind(station.id, at: 1)
        try insert.bind(station.retailer, at: 2)
        try insert.bind(station.siteId, at: 3)
        try insert.bind(station.brand, at: 4)
        try insert.bind(station.name, at: 5)
        try insert.bind(station.address, at: 6)
        try insert.bind(station.postcode, at: 7)
        try insert.bind(station.location?.lat, at: 8)
        try insert.bind(station.location?.lng, at: 9)
        try insert.bind(station.reportedLatitude, at: 10)
        try insert.bind(station.reportedLongitude, at: 11)
        try insert.bind(station.updated.timeIntervalSinceReferenceDate, at: 12)
        for (offset, fuel) in FuelCode.allCases.enumerated() {
            try insert.bind(station.prices[fuel].map { Int64($0.tenths) }, at: firstPriceColumn + offset + 1)
        }
    }

    /// Reads the current row of a statement prepared from `selectSQL`. A number column holding text
    /// or a blob (a damaged or hand-edited row) is refused: read as is, it would be 0, a station
    /// placed off the coast of Africa or a price of nothing.
    static func station(from row: Statement) throws -> Station {
        let id = row.string(at: 0)
        func number(at column: Int) throws -> Double? {
            if row.isNull(at: column) { return nil }
            guard row.isNumber(at: column) else {
                throw StationStoreError.corruptRow(stationID: id, detail: "\(columns[column]) is not a number")
            }
            return row.double(at: column)
        }
        let lat = try number(at: 7)
        let lng = try number(at: 8)
        var location: Coordinate?
        if let lat, let lng {
            guard (-90...90).contains(lat), (-180...180).contains(lng) else {
                throw StationStoreError.corruptRow(stationID: id, detail: "location \(lat), \(lng) is not on Earth")
            }
            location = Coordinate(lat: lat, lng: lng)
        }
        var prices: FuelPrices = [:]
        for (offset, fuel) in FuelCode.allCases.enumerated() {
            let column = firstPriceColumn + offset
            if row.isNull(at: column) { continue }
            guard row.isNumber(at: column) else {
                throw StationStoreError.corruptRow(stationID: id, detail: "\(fuel.rawValue) price is not a number")
            }
            let stored = row.int64(at: column)
            guard let tenths = Int32(exactly: stored) else {
                throw StationStoreError.corruptRow(stationID: id, detail: "\(fuel.rawValue) price \(stored) out of range")
            }
            prices[fuel] = Price(tenths: tenths)
        }
        guard let updated = try number(at: 11) else {
            throw StationStoreError.corruptRow(stationID: id, detail: "updated is missing")
        }
        return Station(id: id, retailer: row.string(at: 1), siteId: row.string(at: 2), brand: row.string(at: 3),
                       name: row.string(at: 4), address: row.string(at: 5), postcode: row.string(at: 6),
                       location: location,
                       reportedLatitude: try number(at: 9), reportedLongitude: try number(at: 10),
                       prices: prices,
                       updated: Date(timeIntervalSinceReferenceDate: updated))
    }

    /// Refuses values SQLite would silently change (it stores NaN as NULL).
    static func validate(_ station: Station, retailer: String) throws {
        guard station.retailer == retailer else {
            throw StationStoreError.retailerMismatch(stationID: station.id, expected: retailer,
                                                     found: station.retailer)
        }
        let numbers: [(String, Double?)] = [
            ("location.lat", station.location?.lat), ("location.lng", station.location?.lng),
            ("reportedLatitude", station.reportedLatitude), ("reportedLongitude", station.reportedLongitude),
            ("updated", station.updated.timeIntervalSinceReferenceDate),
        ]
        for (field, value) in numbers where value?.isNaN == true {
            throw StationStoreError.notANumber(stationID: station.id, field: field)
        }
    }
}
