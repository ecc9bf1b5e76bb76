import Foundation

// The router's front door, coded by hand: every ask is read and answered with these.

extension AssistantAskRequest: JSONReadable {
    public init(json: JSONSlice) throws(JSONUnreadable) {
        var user, utterance: String?
        var request = AssistantAskRequest(user: "", utterance: "")
        try json.forEachMember { key, value throws(JSONUnreadable) in
            if key.matches("user") { user = try value.string() }
            else if key.matches("utterance") { utterance = try value.string() }
            else if key.matches("location") { request.location = try value.nonNull?.value(Coordinate.self) }
            else if key.matches("session") { request.session = try value.nonNull?.string() }
            else if key.matches("locale") { request.locale = try value.nonNull?.string() }
            else if key.matches("now") { request.now = try value.nonNull?.date() }
        }
        guard let user, let utterance else { throw JSONUnreadable() }
        request.user = user
        request.utterance = utterance
        self = request
    }
}

extension AssistantReply: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        var first = true
        writer.byte(UInt8(ascii: "{"))
        writer.key("code", first: &first); writer.string(code.rawValue)
        if let degraded {
            writer.key("degraded", first: &first); JSONValue.array(degraded.map { .string($0) }).writeJSON(to: &writer)
        }
        writer.key("dialog", first: &first); writer.string(dialog)
        if let intent { writer.key("intent", first: &first); writer.string(intent) }
        if let needs { writer.key("needs", first: &first); writer.string(needs) }
        if let opensURL { writer.key("opensURL", first: &first); writer.string(opensURL) }
        if let options {
            writer.key("options", first: &first)
            writer.byte(UInt8(ascii: "["))
            for (index, option) in options.enumerated() {
                if index > 0 { writer.byte(UInt8(ascii: ",")) }
                option.writeJSON(to: &writer)
            }
            writer.byte(UInt8(ascii: "]"))
        }
        if let outcome { writer.key("outcome", first: &first); writer.string(outcome.rawValue) }
        if let parameters { writer.key("parameters", first: &first); JSONValue.object(parameters).writeJSON(to: &writer) }
        if let result { writer.key("result", first: &first); writer.string(result.rawValue) }
        if let service { writer.key("service", first: &first); writer.string(service) }
        if let session { writer.key("session", first: &first); writer.string(session) }
        if let snippet { writer.key("snippet", first: &first); snippet.writeJSON(to: &writer) }
        if let value { writer.key("value", first: &first); writer.string(value) }
        writer.byte(UInt8(ascii: "}"))
    }
}

extension PluginOption: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        var first = true
        writer.byte(UInt8(ascii: "{"))
        if let synonyms {
            writer.key("synonyms", first: &first)
            JSONValue.array(synonyms.map { .string($0) }).writeJSON(to: &writer)
        }
        writer.key("title", first: &first); writer.string(title)
        writer.key("value", first: &first); writer.string(value)
        writer.byte(UInt8(ascii: "}"))
    }
}

extension JSONValue: JSONWritable {
    /// As `JSONCoding` writes it, except that a number that is not finite is written `null`
    /// (Foundation's encoder refuses the whole message). An object of several members is handed
    /// to the encoder, whose order of keys is its own.
    public func writeJSON(to writer: inout JSONWriter) {
        switch self {
        case .null: writer.raw("null")
        case .bool(let value): writer.raw(value ? "true" : "false")
        case .number(let value): writer.number(value)
        case .string(let value): writer.string(value)
        case .array(let elements):
            writer.byte(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { writer.byte(UInt8(ascii: ",")) }
                element.writeJSON(to: &writer)
            }
            writer.byte(UInt8(ascii: "]"))
        case .object(let members) where members.count <= 1:
            writer.byte(UInt8(ascii: "{"))
            if let (key, value) = members.first {
                writer.string(key)
                writer.byte(UInt8(ascii: ":"))
                value.writeJSON(to: &writer)
            }
            writer.byte(UInt8(ascii: "}"))
        case .object:
            writer.raw((try? JSONCoding.makeEncoder().encode(self)) ?? Data("null".utf8))
        }
    }
}
