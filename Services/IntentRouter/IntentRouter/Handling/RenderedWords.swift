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

    private static let snippetStrings: [StaticString] = ["title", "subtitle", "freshness", "price", "id", "postcode"]
    private static let snippetNumbers: [StaticString] = ["lat", "lng", "pricePence"]

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
            if let index = snippetStrings.firstIndex(where: { key.matches($0) }) {
                _ = try string(member)
                if index == 0 { hasTitle = true }
                if index >= 4 { facts += 1 }
            } else if snippetNumbers.contains(where: { key.matches($0) }) {
                _ = try member.double()
                facts += 1
            } else if key.matches("stale") {
                _ = try member.bool()
            } else {
                throw JSONUnreadable()
            }
        }
        guard hasTitle else { throw JSONUnreadable() }
        return facts
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
