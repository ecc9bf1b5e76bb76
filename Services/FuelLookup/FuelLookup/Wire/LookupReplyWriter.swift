import Foundation
import Messages

/// Writes a `LookupReply` as JSON by hand, in the same form `JSONCoding` would (sorted keys,
/// ISO-8601 times), in one pass over the results.
enum LookupReplyWriter {
    static func write(_ reply: LookupReply) -> [UInt8] {
        var out = JSONWriter(capacity: 160 + reply.results.count * 400)
        out.raw(#"{"indexedStations":"#)
        out.integer(reply.indexedStations)
        out.raw(#","results":["#)
        for (position, result) in reply.results.enumerated() {
            if position > 0 { out.raw(",") }
            out.raw(#"{"distanceMiles":"#)
            out.number(result.distanceMiles)
            if let fuel = result.fuel {
                out.raw(#","fuel":"#)
                out.string(fuel)
            }
            if let price = result.pricePence {
                out.raw(#","pricePence":"#)
                out.number(price)
            }
            out.raw(#","station":"#)
            station(result.station, into: &out)
            out.raw(#","updated":"#)
            out.string(TimeText.iso8601(result.updated))
            out.raw("}")
        }
        out.raw(#"],"version":"#)
        out.integer(reply.version)
        out.raw("}")
        return out.bytes
    }

    static func station(_ station: StationSummary, into out: inout JSONWriter) {
        out.raw(#"{"address":"#)
        out.string(station.address)
        out.raw(#","brand":"#)
        out.string(station.brand)
        out.raw(#","id":"#)
        out.string(station.id)
        out.raw(#","lat":"#)
        out.number(station.lat)
        out.raw(#","lng":"#)
        out.number(station.lng)
        out.raw(#","name":"#)
        out.string(station.name)
        out.raw(#","postcode":"#)
        out.string(station.postcode)
        out.raw(#","retailer":"#)
        out.string(station.retailer)
        out.raw("}")
    }
}

/// ISO-8601 in UTC (`2025-10-09T09:45:17Z`), computed from the epoch without a formatter.
enum TimeText {
    static func iso8601(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civilDate(fromDays: days)
        func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(two(month))-\(two(day))T\(two(secondOfDay / 3600)):\(two(secondOfDay % 3600 / 60)):\(two(secondOfDay % 60))Z"
    }

    /// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func civilDate(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
