import Foundation

// location-cache's messages on the ask path, coded by hand.

extension Coordinate: JSONWritable, JSONReadable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.raw(#"{"lat":"#)
        writer.number(lat)
        writer.raw(#","lng":"#)
        writer.number(lng)
        writer.byte(UInt8(ascii: "}"))
    }

    public init(json: JSONSlice) throws(JSONUnreadable) {
        var lat, lng: Double?
        try json.forEachMember { key, value throws(JSONUnreadable) in
            if key.matches("lat") { lat = try value.double() }
            else if key.matches("lng") { lng = try value.double() }
        }
        guard let lat, let lng else { throw JSONUnreadable() }
        self.init(lat: lat, lng: lng)
    }
}

extension LocationPutRequest: JSONWritable, JSONReadable {
    public func writeJSON(to writer: inout JSONWriter) {
        var first = true
        writer.byte(UInt8(ascii: "{"))
        if let at { writer.key("at", first: &first); writer.date(at) }
        writer.key("lat", first: &first); writer.number(lat)
        writer.key("lng", first: &first); writer.number(lng)
        writer.key("user", first: &first); writer.string(user)
        writer.byte(UInt8(ascii: "}"))
    }

    public init(json: JSONSlice) throws(JSONUnreadable) {
        var user: String?
        var lat, lng: Double?
        var at: Date?
        try json.forEachMember { key, value throws(JSONUnreadable) in
            if key.matches("user") { user = try value.string() }
            else if key.matches("lat") { lat = try value.double() }
            else if key.matches("lng") { lng = try value.double() }
            else if key.matches("at") { at = try value.nonNull?.date() }
        }
        guard let user, let lat, let lng else { throw JSONUnreadable() }
        self.init(user: user, lat: lat, lng: lng, at: at)
    }
}

extension UserRequest: JSONWritable, JSONReadable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.raw(#"{"user":"#)
        writer.string(user)
        writer.byte(UInt8(ascii: "}"))
    }

    public init(json: JSONSlice) throws(JSONUnreadable) {
        var user: String?
        try json.forEachMember { key, value throws(JSONUnreadable) in
            if key.matches("user") { user = try value.string() }
        }
        guard let user else { throw JSONUnreadable() }
        self.init(user: user)
    }
}

extension LocationReply: JSONWritable, JSONReadable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.raw(#"{"ageSeconds":"#)
        writer.number(ageSeconds)
        writer.raw(#","at":"#)
        writer.date(at)
        writer.raw(#","lat":"#)
        writer.number(lat)
        writer.raw(#","lng":"#)
        writer.number(lng)
        writer.byte(UInt8(ascii: "}"))
    }

    public init(json: JSONSlice) throws(JSONUnreadable) {
        var lat, lng, ageSeconds: Double?
        var at: Date?
        try json.forEachMember { key, value throws(JSONUnreadable) in
            if key.matches("lat") { lat = try value.double() }
            else if key.matches("lng") { lng = try value.double() }
            else if key.matches("at") { at = try value.date() }
            else if key.matches("ageSeconds") { ageSeconds = try value.double() }
        }
        guard let lat, let lng, let at, let ageSeconds else { throw JSONUnreadable() }
        self.init(lat: lat, lng: lng, at: at, ageSeconds: ageSeconds)
    }
}

extension Preferences: JSONWritable, JSONReadable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.raw(#"{"radiusMiles":"#)
        writer.number(radiusMiles)
        writer.raw(#","unit":"#)
        writer.string(unit.rawValue)
        writer.byte(UInt8(ascii: "}"))
    }

    public init(json: JSONSlice) throws(JSONUnreadable) {
        var radiusMiles: Double?
        var unit: DistanceUnit?
        try json.forEachMember { key, value throws(JSONUnreadable) in
            if key.matches("radiusMiles") { radiusMiles = try value.double() }
            else if key.matches("unit") { unit = try value.choice(DistanceUnit.self) }
        }
        guard let radiusMiles, let unit else { throw JSONUnreadable() }
        self.init(radiusMiles: radiusMiles, unit: unit)
    }
}

extension LocationPutReply: JSONWritable, JSONReadable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.raw(#"{"at":"#)
        writer.date(at)
        writer.raw(#","expiresAt":"#)
        writer.date(expiresAt)
        if let preferences {
            writer.raw(#","preferences":"#)
            preferences.writeJSON(to: &writer)
        }
        writer.raw(#","stored":"#)
        writer.raw(stored ? "true" : "false")
        writer.byte(UInt8(ascii: "}"))
    }

    public init(json: JSONSlice) throws(JSONUnreadable) {
        var stored: Bool?
        var at, expiresAt: Date?
        var preferences: Preferences?
        try json.forEachMember { key, value throws(JSONUnreadable) in
            if key.matches("stored") { stored = try value.bool() }
            else if key.matches("at") { at = try value.date() }
            else if key.matches("expiresAt") { expiresAt = try value.date() }
            else if key.matches("preferences") { preferences = try value.nonNull?.value(Preferences.self) }
        }
        guard let stored, let at, let expiresAt else { throw JSONUnreadable() }
        self.init(stored: stored, at: at, expiresAt: expiresAt, preferences: preferences)
    }
}
