import Foundation
@testable import IntentRouter
import Messages
import Testing

/// A reply that carries the renderer's words as written says, byte for byte, what the reply built
/// from the decoded words says; a renderer reply of any other shape is decoded.
struct SplicedReplyTests {
    static let station = StationSummary(id: "asda/gcpuvmn1qv24", retailer: "asda", brand: "Asda", name: "Asda London",
                                        address: "St Albans Road", postcode: "SE6 7PA", lat: 51.48767, lng: -0.11232)
    static let card = Snippet(title: "Asda London", subtitle: "Diesel · 0.9 miles", freshness: "prices as of 11:00 AM",
                              price: "£1.349", id: station.id, postcode: station.postcode, lat: station.lat,
                              lng: station.lng, pricePence: 134.9, stale: false)
    static let decision = Decision(step: .handle(.findCheapest(.b7, directions: false)), intent: .cheapestFuel,
                                   parameters: ["fuel": .string("B7")], session: "s-1")

    /// The renderer's reply as the router reads it from a frame.
    private static func words(_ json: String) throws -> RenderedWords {
        let bytes = Array(json.utf8)
        return try bytes.withUnsafeBufferPointer { buffer in
            try RenderedWords(json: JSONSlice(bytes: buffer, range: 0..<buffer.count))
        }
    }

    private static func text(_ body: some JSONWritable) -> String {
        var writer = JSONWriter(capacity: 256)
        body.writeJSON(to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    private static func written(_ reply: RenderReply) -> String { text(reply) }

    private static func request(_ outcome: DialogOutcome, station: StationSummary? = station) -> RenderRequest {
        var request = RenderRequest(outcome: outcome, fuel: "B7")
        request.station = station
        request.pricePence = 134.9
        return request
    }

    static let replies: [RenderReply] = [
        RenderReply(dialog: "The cheapest diesel near you is Asda London at £1.349 — prices as of 11:00 AM.",
                    value: "Asda London: £1.349", snippet: card),
        RenderReply(dialog: "Head to Asda London.", value: "Asda London", snippet: card,
                    opensURL: "https://www.google.com/maps/dir/?api=1&destination=51.48767,-0.11232"),
        RenderReply(dialog: "Head to Asda London.", snippet: card),
        RenderReply(dialog: "Nothing within 5 miles sells diesel."),
        RenderReply(dialog: "Nothing within 5 miles sells diesel.", value: "none",
                    snippet: Snippet(title: "No diesel nearby")),
    ]

    @Test(arguments: [DialogOutcome.found, .directions, .nothingInRange, .noLocation])
    func aSplicedReply_isTheDecodedReplyByteForByte(outcome: DialogOutcome) throws {
        var spliced = 0
        for rendered in Self.replies {
            for station in [Self.station, nil] {
                let request = Self.request(outcome, station: station)
                let decoded = Speaker.reply(.success, request, rendered, Self.decision)
                guard case .spliced(let raw) = try Self.words(Self.written(rendered)) else {
                    Issue.record("not kept as written: \(rendered)")
                    continue
                }
                guard let reply = Speaker.spliced(.success, request, raw, Self.decision) else {
                    // Only a found station whose card lacks its facts is completed by decoding.
                    #expect(station != nil && (outcome == .found || outcome == .directions)
                            && rendered.snippet?.id == nil, "\(rendered)")
                    continue
                }
                spliced += 1
                #expect(Self.text(reply) == Self.text(decoded), "\(outcome) \(rendered)")
                #expect(Self.text(reply.assistantReply) == Self.text(decoded))
            }
        }
        #expect(spliced >= 8)
    }

    @Test(arguments: [
        #"{"dialog":"hi","value":null}"#,                                  // null: the decoder drops it
        #"{"dialog":"hi","extra":1}"#,                                     // a member it does not read
        #"{"dialog":"say \"hi\""}"#,                                       // escapes: resolved by decoding
        #"{"dialog":"hi","snippet":{"title":"t","subtitle":null}}"#,
        #"{"dialog":"hi","snippet":{"title":"t","colour":"red"}}"#,
        #"{"dialog":"hi","snippet":{"title":"t","lat":"north"}}"#,
        #"{"dialog":"hi","snippet":{"title":"t","stale":"no"}}"#,
        #"{"dialog":"hi","snippet":{"title":"t","lat":5e1}}"#,              // an exponent: read by the decoder
        #"{"dialog":"hi","snippet":{"subtitle":"no title"}}"#,
        #"{"dialog":"hi","dialog":"twice"}"#,
        #"{"dialog":7}"#,
    ])
    func aReplyOfAnotherShape_isDecoded(json: String) {
        let words = try? Self.words(json)
        if case .spliced = words { Issue.record("kept as written: \(json)") }
    }

    @Test func anEmptyDialog_isNotSpliced_soTheBuiltInWordsAreUsed() throws {
        guard case .spliced(let raw) = try Self.words(#"{"dialog":""}"#) else {
            Issue.record("an empty dialog is still of the usual shape")
            return
        }
        #expect(Speaker.spliced(.success, Self.request(.nothingInRange), raw, Self.decision) == nil)
    }

    @Test func aFoundStationsCardWithoutItsFacts_isCompletedByDecoding() throws {
        let bare = RenderReply(dialog: "Asda London, £1.349.", snippet: Snippet(title: "Asda London"))
        guard case .spliced(let raw) = try Self.words(Self.written(bare)) else {
            Issue.record("not kept as written")
            return
        }
        #expect(!raw.snippetHasStationFacts)
        #expect(Speaker.spliced(.success, Self.request(.found), raw, Self.decision) == nil)
        let decoded = Speaker.reply(.success, Self.request(.found), bare, Self.decision)
        #expect(decoded.snippet?.id == Self.station.id)
        #expect(decoded.snippet?.pricePence == 134.9)
    }
}
