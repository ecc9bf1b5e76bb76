import Foundation

// price-ingest's snapshot as it writes it and replicas read it: a retailer's whole state at 1M
// stations is a large document, coded by hand instead of through JSONEncoder and JSONDecoder.

extension SnapshotReply: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        var first = true
        writer.byte(UInt8(ascii: "{"))
        if let head { writer.key("head", first: &first); writer.string(head) }
        if let retailers {
            writer.key("retailers", first: &first)
            writer.byte(UInt8(ascii: "["))
            for (index, entry) in retailers.enumerated() {
                if index > 0 { writer.byte(UInt8(ascii: ",")) }
                writer.byte(UInt8(ascii: "{"))
                if let fingerprint = entry.fingerprint {
                    writer.raw(#""fingerprint":"#)
                    writer.string(fingerprint)
                    writer.byte(UInt8(ascii: ","))
                }
                writer.raw(#""retailer":"#)
                writer.string(entry.retailer)
                writer.raw(#","stationCount":"#)
                writer.integer(entry.stationCount)
                writer.raw(#","version":"#)
                writer.integer(entry.version)
                writer.byte(UInt8(ascii: "}"))
            }
            writer.byte(UInt8(ascii: "]"))
        }
        if let state { writer.key("state", first: &first); state.writeJSON(to: &writer) }
        if let store { writer.key("store", first: &first); writer.string(store) }
        writer.key("version", first: &first); writer.integer(version)
        writer.byte(UInt8(ascii: "}"))
    }
}

extension RetailerState: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.byte(UInt8(ascii: "{"))
        if let fingerprint {
            writer.raw(#""fingerprint":"#)
            writer.string(fingerprint)
            writer.byte(UInt8(ascii: ","))
        }
        writer.raw(#""retailer":"#)
        writer.string(retailer)
        writer.raw(#","stations":["#)
        for (index, station) in stations.enumerated() {
            if index > 0 { writer.byte(UInt8(ascii: ",")) }
            station.writeJSON(to: &writer)
        }
        writer.raw(#"],"updated":"#)
        writer.date(updated)
        writer.raw(#","version":"#)
        writer.integer(version)
        writer.byte(UInt8(ascii: "}"))
    }
}

extension Station: JSONWritable {
    /// Fuel codes in the order the encoder sorts them as keys.
    private static let fuelKeyOrder = FuelCode.allCases.sorted { $0.rawValue < $1.rawValue }

    public func writeJSON(to writer: inout JSONWriter) {
        var first = true
        writer.byte(UInt8(ascii: "{"))
        writer.key("address", first: &first); writer.string(address)
        writer.key("brand", first: &first); writer.string(brand)
        writer.key("id", first: &first); writer.string(id)
        if let location { writer.key("location", first: &first); location.writeJSON(to: &writer) }
        writer.key("name", first: &first); writer.string(name)
        writer.key("postcode", first: &first); writer.string(postcode)
        writer.key("prices", first: &first)
        var firstPrice = true
        writer.byte(UInt8(ascii: "{"))
        for fuel in Self.fuelKeyOrder {
            guard let price = prices[fuel] else { continue }
            if !firstPrice { writer.byte(UInt8(ascii: ",")) }
            firstPrice = false
            writer.string(fuel.rawValue)
            writer.byte(UInt8(ascii: ":"))
            writer.number(price.pence)
        }
        writer.byte(UInt8(ascii: "}"))
        if let reportedLatitude { writer.key("reportedLatitude", first: &first); writer.number(reportedLatitude) }
        if let reportedLongitude { writer.key("reportedLongitude", first: &first); writer.number(reportedLongitude) }
        writer.key("retailer", first: &first); writer.string(retailer)
        writer.key("siteId", first: &first); writer.string(siteId)
        writer.key("updated", first: &first); writer.date(updated)
        writer.byte(UInt8(ascii: "}"))
    }
}

extension SnapshotReply: JSONReadable {
    public init(json: JSONSlice) throws(JSONUnreadable) {
        var version: UInt64?
        var reply = SnapshotReply(version: 0)
        try json.forEachMember { key, value throws(JSONUnreadable) in
            if key.matches("version") { version = try value.uint64() }
            else if key.matches("retailers") { reply.retailers = try value.nonNull?.array(of: Entry.self) }
            else if key.matches("state") { reply.state = try value.nonNull?.value(RetailerState.self) }
            else if key.matches("store") { reply.store = try value.nonNull?.string() }
            else if key.matches("head") { reply.head = try value.nonNull?.string() }
        }
        guard let version else { throw JSONUnreadable() }
        reply.version = version
        self = reply
    }
}

extension SnapshotReply.Entry: JSONReadable {
    public init(json: JSONSlice) throws(JSONUnreadable) {
        var retailer: String?
        var version: UInt64?
        var stationCount: Int?
        var fingerprint: String?
        try json.forEachMember { key, value throws(JSONUnreadable) in
            if key.matches("retailer") { retailer = try value.string() }
            else if key.matches("version") { version = try value.uint64() }
            else if key.matches("stationCount") { stationCount = try value.int() }
            else if key.matches("fingerprint") { fingerprint = try value.nonNull?.string() }
        }
        guard let retailer, let version, let stationCount else { throw JSONUnreadable() }
        self.init(retailer: retailer, version: version, stationCount: stationCount, fingerprint: fingerprint)
    }
}

extension RetailerState: JSONReadable {
    public init(json: JSONSlice) throws(JSONUnreadable) {
        var version: UInt64?
        var retailer: String?
        var updated: Date?
        var stations: [Station]?
        var fingerprint: String?
        try json.forEachMember { key, value throws(JSONUnreadable) in
            if key.matches("version") { version = try value.uint64() }
            else if key.matches("retailer") { retailer = try value.string() }
            else if key.matches("updated") { updated = try value.date() }
            else if key.matches("stations") { stations = try value.array(of: Station.self) }
            else if key.matches("fingerprint") { fingerprint = try value.nonNull?.string() }
        }
        guard let version, let retailer, let updated, let stations else { throw JSONUnreadable() }
        self.init(version: version, retailer: retailer, updated: updated, stations: stations, fingerprint: fingerprint)
    }
}

extension Station: JSONReadable {
    public init(json: JSONSlice) throws(JSONUnreadable) {
        var id, retailer, siteId, brand, name, address, postcode: String?
        var location: Coordinate?
        var reportedLatitude, reportedLongitude: Double?
        var prices: FuelPrices?
        var updated: Date?
        try json.forEachMember { key, value throws(JSONUnreadable) in
            if key.matches("id") { id = try value.string() }
            else if key.matches("retailer") { retailer = try value.string() }
            else if key.matches("siteId") { siteId = try value.string() }
            else if key.matches("brand") { brand = try value.string() }
            else if key.matches("name") { name = try value.string() }
            else if key.matches("address") { address = try value.string() }
            else if key.matches("postcode") { postcode = try value.string() }
            else if key.matches("location") { location = try value.nonNull?.value(Coordinate.self) }
            else if key.matches("reportedLatitude") { reportedLatitude = try value.nonNull?.double() }
            else if key.matches("reportedLongitude") { reportedLongitude = try value.nonNull?.double() }
            else if key.matches("prices") { prices = try Self.prices(value) }
            else if key.matches("updated") { updated = try value.date() }
        }
        guard let id, let retailer, let siteId, let brand, let name, let address, let postcode, let prices,
              let updated else { throw JSONUnreadable() }
        self.init(id: id, retailer: retailer, siteId: siteId, brand: brand, name: name, address: address,
                  postcode: postcode, location: location, reportedLatitude: reportedLatitude,
                  reportedLongitude: reportedLongitude, prices: prices, updated: updated)
    }

    /// `{"B7": 139.9, ...}`: fuel codes as keys (any other key is left to the decoder's error),
    /// pence as numbers read as `Price(pence:)` reads them.
    private static func prices(_ value: JSONSlice) throws(JSONUnreadable) -> FuelPrices {
        var prices: FuelPrices = [:]
        try value.forEachMember { key, price throws(JSONUnreadable) in
            guard let fuel = FuelCode(rawValue: key.text), let parsed = Price(pence: try price.double()) else {
                throw JSONUnreadable()
            }
            prices[fuel] = parsed
        }
        return prices
    }
}
