import Messages

/// Writes a feed in the CMA envelope, one station per line:
/// `{"last_updated":"dd/mm/yyyy HH:MM:SS","stations":[{...},{...}]}`.
enum FeedJSONWriter {
    /// Rough bytes per station, to size the buffer once.
    static let bytesPerStation = 260

    static func json(records: [SiteRecord], lastUpdated: String, keyOrder: KeyOrder) -> [UInt8] {
        var out = JSONBytes(capacity: 64 + records.count * bytesPerStation)
        if keyOrder != .reversed {
            out.raw("{\"last_updated\":")
            out.string(lastUpdated)
            out.raw(",\"stations\":[\n")
        } else {
            out.raw("{\"stations\":[\n")
        }
        for (position, record) in records.enumerated() {
            if position > 0 { out.raw(",\n") }
            station(record, keyOrder: keyOrder, into: &out)
        }
        if keyOrder != .reversed {
            out.raw("\n]}\n")
        } else {
            out.raw("\n],\"last_updated\":")
            out.string(lastUpdated)
            out.raw("}\n")
        }
        return out.bytes
    }

    private static func station(_ record: SiteRecord, keyOrder: KeyOrder, into out: inout JSONBytes) {
        switch keyOrder {
        case .standard, .longitudeFirst:
            out.raw("{\"site_id\":")
            out.string(record.writtenSiteId)
            out.raw(",\"brand\":")
            out.string(record.writtenBrand)
            out.raw(",\"address\":")
            out.string(record.writtenAddress)
            out.raw(",\"postcode\":")
            out.string(record.writtenPostcode)
            out.raw(",\"location\":")
            location(record, longitudeFirst: keyOrder == .longitudeFirst, into: &out)
            out.raw(",\"prices\":")
            prices(record, into: &out)
            out.raw("}")
        case .reversed:
            out.raw("{\"location\":")
            location(record, longitudeFirst: true, into: &out)
            out.raw(",\"prices\":")
            prices(record, into: &out)
            out.raw(",\"site_id\":")
            out.string(record.writtenSiteId)
            out.raw(",\"postcode\":")
            out.string(record.writtenPostcode)
            out.raw(",\"address\":")
            out.string(record.writtenAddress)
            out.raw(",\"brand\":")
            out.string(record.writtenBrand)
            out.raw("}")
        }
    }

    private static func location(_ record: SiteRecord, longitudeFirst: Bool, into out: inout JSONBytes) {
        if longitudeFirst {
            out.raw("{\"longitude\":")
            coordinate(record.longitudeScaled, record, into: &out)
            out.raw(",\"latitude\":")
            coordinate(record.latitudeScaled, record, into: &out)
        } else {
            out.raw("{\"latitude\":")
            coordinate(record.latitudeScaled, record, into: &out)
            out.raw(",\"longitude\":")
            coordinate(record.longitudeScaled, record, into: &out)
        }
        out.raw("}")
    }

    private static func coordinate(_ scaled: Int64, _ record: SiteRecord, into out: inout JSONBytes) {
        switch record.coordinateForm {
        case .number:
            out.fixed(scaled, decimals: record.decimals)
        case .string:
            out.raw("\"")
            out.fixed(scaled, decimals: record.decimals)
            out.raw("\"")
        case .zero:
            out.raw("0")
        }
    }

    private static func prices(_ record: SiteRecord, into out: inout JSONBytes) {
        out.raw("{")
        for (position, entry) in record.prices.enumerated() {
            if position > 0 { out.raw(",") }
            out.string(entry.fuel.rawValue)
            out.raw(":")
            switch entry.value {
            case .tenths(let tenths): out.tenths(tenths)
            case .noisy(_, let value): out.double(value)
            }
        }
        out.raw("}")
    }
}
