import SQLite

/// Why the station store refused or failed an operation.
public enum StationStoreError: Error, Sendable, CustomStringConvertible {
    /// The data directory or database file could not be created or opened.
    case cannotOpen(path: String, reason: String)
    /// The file was written by a newer (or unknown) schema version.
    case unsupportedSchema(found: Int32, supported: Int32)
    /// A station handed to `replaceRetailer` belongs to another retailer.
    case retailerMismatch(stationID: String, expected: String, found: String)
    /// A coordinate or time was NaN, which SQLite cannot store.
    case notANumber(stationID: String, field: String)
    /// SQLite refused one station (duplicate id, constraint...): the whole replace was rolled back.
    case stationRejected(stationID: String, reason: SQLiteError)
    /// The retailer slug is empty.
    case emptyRetailer
    /// A stored row could not be turned back into a value.
    case corruptRow(stationID: String, detail: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            "cannot open station store at \(path): \(reason)"
        case .unsupportedSchema(let found, let supported):
            "station store schema version \(found) is not supported (this build knows up to \(supported))"
        case .retailerMismatch(let stationID, let expected, let found):
            "station \(stationID) belongs to retailer '\(found)', not '\(expected)'"
        case .notANumber(let stationID, let field):
            "station \(stationID) has NaN in \(field)"
        case .stationRejected(let stationID, let reason):
            "station \(stationID) was rejected, nothing changed: \(reason)"
        case .emptyRetailer:
            "the retailer name is empty"
        case .corruptRow(let stationID, let detail):
            "stored station \(stationID) is corrupt: \(detail)"
        }
    }
}
