import Foundation
import Messages

/// Writes a lookup answer as JSON by hand, byte for byte what `JSONCoding` would make of
/// `answer.reply` (sorted keys, ISO-8601 times), in one pass over the matches: per result the
/// distance, fuel, outlier flag and price, then the station's text from the `ReplyTextCache`.
enum LookupReplyWriter {
    static func write(_ answer: LookupAnswer, cache: ReplyTextCache = ReplyTextCache()) -> [UInt8] {
        var out = JSONWriter(capacity: 64 + answer.ranked.count * 400)
        write(answer, cache: cache, into: &out)
        return out.bytes
    }

    static func write(_ answer: LookupAnswer, cache: ReplyTextCache, into out: inout JSONWriter) {
        out.raw(#"{"indexedStations":"#)
        out.integer(answer.index.count)
        if let passedOver = answer.passedOver {
            out.raw(#","passedOver":"#)
            write(passedOver, of: answer, cache: cache, into: &out)
        }
        out.raw(#","results":["#)
        for (position, ranked) in answer.ranked.enumerated() {
            if position > 0 { out.raw(",") }
            write(ranked, of: answer, cache: cache, into: &out)
        }
        out.raw(#"],"version":"#)
        out.integer(answer.version)
        out.raw("}")
    }

    /// One result: the distance, fuel, outlier flag and price, then the station's text.
    private static func write(_ ranked: RankedMatch, of answer: LookupAnswer, cache: ReplyTextCache,
                              into out: inout JSONWriter) {
        out.raw(#"{"distanceMiles":"#)
        out.number(LookupHandler.roundedMiles(ranked.distanceMiles))
        if let price = ranked.price {
            if let fuel = answer.fuel {
                out.raw(#","fuel":"#)
                out.string(fuel.rawValue)
            }
            if let outlier = ranked.priceOutlier {
                out.raw(#","priceOutlier":"#)
                out.string(outlier.rawValue)
            }
            out.raw(#","pricePence":"#)
            out.number(price.pence)
        }
        out.raw(",")
        cache.write(ranked, of: answer.index, into: &out)
    }
}
