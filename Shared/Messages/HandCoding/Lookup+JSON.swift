import Foundation

// The lookup messages the router sends and reads on every ask, coded by hand.

extension LookupRequest: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        var first = true
        writer.byte(UInt8(ascii: "{"))
        if let brand { writer.key("brand", first: &first); writer.string(brand) }
        if let fuel { writer.key("fuel", first: &first); writer.string(fuel) }
        writer.key("lat", first: &first); writer.number(lat)
        if let limit { writer.key("limit", first: &first); writer.integer(limit) }
        writer.key("lng", first: &first); writer.number(lng)
        if let maxAgeHours { writer.key("maxAgeHours", first: &first); writer.number(maxAgeHours) }
        if let preferFresh { writer.key("preferFresh", first: &first); writer.raw(preferFresh ? "true" : "false") }
        if let radiusMiles { writer.key("radiusMiles", first: &first); writer.number(radiusMiles) }
        if let retailer { writer.key("retailer", first: &first); writer.string(retailer) }
        writer.byte(UInt8(ascii: "}"))
    }
}

extension StationSummary: JSONWritable, JSONReadable {
    public func writeJSON(to writer: inout JSONWriter) {
        var first = true
        writer.byte(UInt8(ascii: "{"))
        writer.key("address", first: &first); writer.string(address)
        writer.key("brand", first: &first); writer.string(brand)
        writer.key("id", first: &first); writer.string(id)
        writer.key("lat", first: &first); writer.number(lat)
        writer.key("lng", first: &first); writer.number(lng)
        writer.key("name", first: &first); writer.string(name)
        writer.key("postcode", first: &first); writer.string(postcode)
        writer.key("retailer", first: &first); writer.string(retailer)
        writer.byte(UInt8(ascii: "}"))
    }

    public init(json: JSONSlice) throws(JSONUnreadable) {
        var id, retailer, brand, name, address, postcode: String?
        var lat, lng: Double?
        try json.forEachMember { key, value throws(JSONUnreadable) in
            if key.matches("id") { id = try value.string() }
            else if key.matches("retailer") { retailer = try value.string() }
            else if key.matches("brand") { brand = try value.string() }
            else if key.matches("name") { name = try value.string() }
            else if key.matches("address") { address = try value.string() }
            else if key.matches("postcode") { postcode = try value.string() }
            else if key.matches("lat") { lat = try value.double() }
            else if key.matches("lng") { lng = try value.double() }
        }
        guard let id, let retailer, let brand, let name, let address, let postcode, let lat, let lng else {
            throw JSONUnreadable()
        }
        self.init(id: id, retailer: retailer, brand: brand, name: name, address: address, postcode: postcode,
                  lat: lat, lng: lng)
    }
}

extension LookupResult: JSONReadable {
    public init(json: JSONSlice) throws(JSONUnreadable) {
        var station: StationSummary?
        var pricePence: Double?, distanceMiles: Double?
        var fuel: String?
        var updated: Date?
        var priceOutlier: PriceOutlier?
        try json.forEachMember { key, value throws(JSONUnreadable) in
            if key.matches("station") { station = try value.value(StationSummary.self) }
            else if key.matches("pricePence") { pricePence = try value.nonNull?.double() }
            else if key.matches("fuel") { fuel = try value.nonNull?.string() }
            else if key.matches("distanceMiles") { distanceMiles = try value.double() }
            else if key.matches("updated") { updated = try value.date() }
            else if key.matches("priceOutlier") {
                // A kind this reader does not know is left out rather than refusing the answer.
                if let text = try value.nonNull?.string() { priceOutlier = PriceOutlier(rawValue: text) }
            }
        }
        guard let station, let distanceMiles, let updated else { throw JSONUnreadable() }
        self.init(station: station, pricePence: pricePence, fuel: fuel, distanceMiles: distanceMiles, updated: updated,
                  priceOutlier: priceOutlier)
    }
}

extension LookupReply: JSONReadable {
    public init(json: JSONSlice) throws(JSONUnreadable) {
        var results: [LookupResult]?
        var indexedStations: Int?
        var version: UInt64?
        var passedOver: LookupResult?
        try json.forEachMember { key, value throws(JSONUnreadable) in
            if key.matches("results") { results = try value.array(of: LookupResult.self) }
            else if key.matches("indexedStations") { indexedStations = try value.int() }
            else if key.matches("version") { version = try value.uint64() }
            else if key.matches("passedOver") { passedOver = try value.nonNull?.value(LookupResult.self) }
        }
        guard let results, let indexedStations, let version else { throw JSONUnreadable() }
        self.init(results: results, indexedStations: indexedStations, version: version, passedOver: passedOver)
    }
}
