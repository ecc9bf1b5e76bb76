import Foundation

// dialog.render's request and reply, coded by hand: the router writes and reads them on every ask,
// dialog-renderer reads and writes them.

extension RenderRequest: JSONWritable, JSONReadable {
    public func writeJSON(to writer: inout JSONWriter) {
        var first = true
        writer.byte(UInt8(ascii: "{"))
        if let defaultSettings { writer.key("defaultSettings", first: &first); writer.raw(defaultSettings ? "true" : "false") }
        if let distanceMiles { writer.key("distanceMiles", first: &first); writer.number(distanceMiles) }
        if let fuel { writer.key("fuel", first: &first); writer.string(fuel) }
        if let locale { writer.key("locale", first: &first); writer.string(locale) }
        if let locationAt { writer.key("locationAt", first: &first); writer.date(locationAt) }
        if let now { writer.key("now", first: &first); writer.date(now) }
        writer.key("outcome", first: &first); writer.string(outcome.rawValue)
        if let passedOver { writer.key("passedOver", first: &first); passedOver.writeJSON(to: &writer) }
        if let priceOutlier { writer.key("priceOutlier", first: &first); writer.string(priceOutlier.rawValue) }
        if let pricePence { writer.key("pricePence", first: &first); writer.number(pricePence) }
        if let radiusMiles { writer.key("radiusMiles", first: &first); writer.number(radiusMiles) }
        if let station { writer.key("station", first: &first); station.writeJSON(to: &writer) }
        if let unit { writer.key("unit", first: &first); writer.string(unit.rawValue) }
        if let updated { writer.key("updated", first: &first); writer.date(updated) }
        if let word { writer.key("word", first: &first); writer.string(word) }
        writer.byte(UInt8(ascii: "}"))
    }

    public init(json: JSONSlice) throws(JSONUnreadable) {
        var outcome: DialogOutcome?
        var request = RenderRequest(outcome: .failure)
        try json.forEachMember { key, value throws(JSONUnreadable) in
            if key.matches("outcome") { outcome = try value.choice(DialogOutcome.self) }
            else if key.matches("locale") { request.locale = try value.nonNull?.string() }
            else if key.matches("now") { request.now = try value.nonNull?.date() }
            else if key.matches("fuel") { request.fuel = try value.nonNull?.string() }
            else if key.matches("station") { request.station = try value.nonNull?.value(StationSummary.self) }
            else if key.matches("pricePence") { request.pricePence = try value.nonNull?.double() }
            else if key.matches("priceOutlier") { request.priceOutlier = try value.nonNull?.choice(PriceOutlier.self) }
            else if key.matches("distanceMiles") { request.distanceMiles = try value.nonNull?.double() }
            else if key.matches("updated") { request.updated = try value.nonNull?.date() }
            else if key.matches("locationAt") { request.locationAt = try value.nonNull?.date() }
            else if key.matches("radiusMiles") { request.radiusMiles = try value.nonNull?.double() }
            else if key.matches("unit") { request.unit = try value.nonNull?.choice(DistanceUnit.self) }
            else if key.matches("word") { request.word = try value.nonNull?.string() }
            else if key.matches("defaultSettings") { request.defaultSettings = try value.nonNull?.bool() }
            else if key.matches("passedOver") { request.passedOver = try value.nonNull?.value(PassedOverPrice.self) }
        }
        guard let outcome else { throw JSONUnreadable() }
        request.outcome = outcome
        self = request
    }
}

extension PassedOverPrice: JSONWritable, JSONReadable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.raw(#"{"pricePence":"#)
        writer.number(pricePence)
        writer.raw(#","station":"#)
        writer.string(station)
        writer.raw(#","updated":"#)
        writer.date(updated)
        writer.byte(UInt8(ascii: "}"))
    }

    public init(json: JSONSlice) throws(JSONUnreadable) {
        var station: String?, pricePence: Double?, updated: Date?
        try json.forEachMember { key, value throws(JSONUnreadable) in
            if key.matches("station") { station = try value.string() }
            else if key.matches("pricePence") { pricePence = try value.double() }
            else if key.matches("updated") { updated = try value.date() }
        }
        guard let station, let pricePence, let updated else { throw JSONUnreadable() }
        self.init(station: station, pricePence: pricePence, updated: updated)
    }
}

extension Snippet: JSONWritable, JSONReadable {
    public func writeJSON(to writer: inout JSONWriter) {
        var first = true
        writer.byte(UInt8(ascii: "{"))
        if let freshness { writer.key("freshness", first: &first); writer.string(freshness) }
        if let id { writer.key("id", first: &first); writer.string(id) }
        if let lat { writer.key("lat", first: &first); writer.number(lat) }
        if let lng { writer.key("lng", first: &first); writer.number(lng) }
        if let postcode { writer.key("postcode", first: &first); writer.string(postcode) }
        if let price { writer.key("price", first: &first); writer.string(price) }
        if let priceOutlier { writer.key("priceOutlier", first: &first); writer.string(priceOutlier.rawValue) }
        if let pricePence { writer.key("pricePence", first: &first); writer.number(pricePence) }
        if let stale { writer.key("stale", first: &first); writer.raw(stale ? "true" : "false") }
        if let subtitle { writer.key("subtitle", first: &first); writer.string(subtitle) }
        writer.key("title", first: &first); writer.string(title)
        writer.byte(UInt8(ascii: "}"))
    }

    public init(json: JSONSlice) throws(JSONUnreadable) {
        var title: String?
        var snippet = Snippet(title: "")
        try json.forEachMember { key, value throws(JSONUnreadable) in
            if key.matches("title") { title = try value.string() }
            else if key.matches("subtitle") { snippet.subtitle = try value.nonNull?.string() }
            else if key.matches("freshness") { snippet.freshness = try value.nonNull?.string() }
            else if key.matches("price") { snippet.price = try value.nonNull?.string() }
            else if key.matches("id") { snippet.id = try value.nonNull?.string() }
            else if key.matches("postcode") { snippet.postcode = try value.nonNull?.string() }
            else if key.matches("lat") { snippet.lat = try value.nonNull?.double() }
            else if key.matches("lng") { snippet.lng = try value.nonNull?.double() }
            else if key.matches("pricePence") { snippet.pricePence = try value.nonNull?.double() }
            else if key.matches("stale") { snippet.stale = try value.nonNull?.bool() }
            else if key.matches("priceOutlier"), let text = try value.nonNull?.string() {
                // A kind this reader does not know is left out rather than refusing the card.
                snippet.priceOutlier = PriceOutlier(rawValue: text)
            }
        }
        guard let title else { throw JSONUnreadable() }
        snippet.title = title
        self = snippet
    }
}

extension RenderReply: JSONWritable, JSONReadable {
    public func writeJSON(to writer: inout JSONWriter) {
        var first = true
        writer.byte(UInt8(ascii: "{"))
        writer.key("dialog", first: &first); writer.string(dialog)
        if let opensURL { writer.key("opensURL", first: &first); writer.string(opensURL) }
        if let snippet { writer.key("snippet", first: &first); snippet.writeJSON(to: &writer) }
        if let value { writer.key("value", first: &first); writer.string(value) }
        writer.byte(UInt8(ascii: "}"))
    }

    public init(json: JSONSlice) throws(JSONUnreadable) {
        var dialog: String?
        var reply = RenderReply(dialog: "")
        try json.forEachMember { key, value throws(JSONUnreadable) in
            if key.matches("dialog") { dialog = try value.string() }
            else if key.matches("value") { reply.value = try value.nonNull?.string() }
            else if key.matches("snippet") { reply.snippet = try value.nonNull?.value(Snippet.self) }
            else if key.matches("opensURL") { reply.opensURL = try value.nonNull?.string() }
        }
        guard let dialog else { throw JSONUnreadable() }
        reply.dialog = dialog
        self = reply
    }
}
