import Foundation
import Messages

/// dialog-renderer's answer as the router reads it: kept as the renderer wrote it when it has
/// the usual shape (so the reply to the ask carries its text without decoding and re-encoding
/// it), decoded otherwise.
enum RenderedWords: Decodable, JSONReadable {
    case spliced(RawRenderReply)
    case decoded(RenderReply)

    init(json: JSONSlice) throws(JSONUnreadable) {
        if let raw = RawRenderReply(json) {
            self = .spliced(raw)
        } else {
            self = .decoded(try RenderReply(json: json))
        }
    }

    /// The decoder's reading, for a reply the hand readers do not take (as `RenderReply` has).
    init(from decoder: any Decoder) throws {
        self = .decoded(try RenderReply(from: decoder))
    }

    /// The reply as values (nil when the kept text does not read as one, which its check rules out).
    var reply: RenderReply? {
        switch self {
        case .spliced(let raw): raw.decoded
        case .decoded(let reply): reply
        }
    }
}

/// A renderer reply of the usual shape, kept as its JSON text: only the members `RenderReply`
/// reads, none `null`, each of the type that reader takes (strings without escapes); the snippet
/// likewise. Anything else is left to the decoding path, so a reply spliced from this says
/// exactly what a decoded one would.
struct RawRenderReply {
    /// The reply body's bytes (a copy: the frame they came in is not kept).
    let text: [UInt8]
    let dialog: Range<Int>
    let value: Range<Int>?
    let opensURL: Range<Int>?
    let snippet: Range<Int>?
    /// Which of the station facts the router adds to a card (`id`, `postcode`, `lat`, `lng`,
    /// `pricePence`) the snippet already has: a card that lacks one is completed by decoding.
    let snippetHasStationFacts: Bool

    init?(_ json: JSONSlice) {
        var dialog, value, opensURL, snippet: Range<Int>?
        var facts = 0
        do {
            try json.forEachMember { key, member throws(JSONUnreadable) in
                if key.matches("dialog") { dialog = try Self.string(member) }
                else if key.matches("value") { value = try Self.string(member) }
                else if key.matches("opensURL") { opensURL = try Self.string(member) }
                else if key.matches("snippet") {
                    snippet = member.range
                    facts = try Self.checkSnippet(member)
                } else {
                    throw JSONUnreadable()
                }
            }
        } catch {
            return nil
        }
        guard let dialog else { return nil }
        let base = json.range.lowerBound
        func local(_ range: Range<Int>) -> Range<Int> { (range.lowerBound - base)..<(range.upperBound - base) }
        text = Array(UnsafeBufferPointer(rebasing: json.bytes[json.range]))
        self.dialog = local(dialog)
        self.value = value.map(local)
        self.opensURL = opensURL.map(local)
        self.snippet = snippet.map(local)
        snippetHasStationFacts = facts == 5
    }

    /// A member that must be a string (not `null`), written without escapes (one with them is
    /// left to the decoder, which resolves them): where its JSON text is.
    private static func string(_ member: JSONSlice) throws(JSONUnreadable) -> Range<Int> {
        guard JSONObjectReader.isPlainString(member.bytes, member.range) else { throw JSONUnreadable() }
        return member.range
    }

    /// Checks a snippet has only members `Snippet` reads, none `null`, with a title; returns how
    /// many of the five station facts it has.
    private static func checkSnippet(_ snippet: JSONSlice) throws(JSONUnreadable) -> Int {
        var hasTitle = false, facts = 0
        try snippet.forEachMember { key, member throws(JSONUnreadable) in
            if key.matches("title") {
                _ = try string(member)
                hasTitle = true
            } else if key.matches("id") || key.matches("postcode") {
                _ = try string(member)
                facts += 1
            } else if key.matches("lat") || key.matches("lng") || key.matches("pricePence") {
                try number(member)
                facts += 1
            } else if key.matches("subtitle") || key.matches("freshness") || key.matches("price") {
                _ = try string(member)
            } else if key.matches("stale") {
                _ = try member.bool()
            } else if key.matches("priceOutlier") {
                // Only a kind the decoder knows: it leaves out any other, and so must the splice.
                _ = try string(member)
                _ = try member.choice(PriceOutlier.self)
            } else {
                throw JSONUnreadable()
            }
        }
        guard hasTitle else { throw JSONUnreadable() }
        return facts
    }

    /// A member that must be a number the decoder reads as it is written: plain digits with an
    /// optional sign and fraction, short enough to be finite (one with an exponent is decoded).
    private static func number(_ member: JSONSlice) throws(JSONUnreadable) {
        guard member.range.count <= 24 else { throw JSONUnreadable() }
        for index in member.range {
            switch member.bytes[index] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."): continue
            default: throw JSONUnreadable()
            }
        }
    }

    /// The reply as values, read from the kept text.
    var decoded: RenderReply? {
        text.withUnsafeBufferPointer { bytes in
            try? RenderReply(json: JSONSlice(bytes: bytes, range: 0..<bytes.count))
        }
    }

    /// Writes the member at `range` as it was sent.
    func write(_ range: Range<Int>, to writer: inout JSONWriter) {
        text.withUnsafeBufferPointer { bytes in writer.raw(UnsafeBufferPointer(rebasing: bytes[range])) }
    }
}
