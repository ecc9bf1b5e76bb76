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
            out.string(CivilCalendar.iso8601(result.updated))
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
