import Messages

/// A `dialog.render` reply body as JSON, byte for byte what `RenderReply.writeJSON` writes for
/// the same reply: composed in the render's `TextScratch` from texts that are already JSON
/// string text, with the snippet's numbers as `JSONWriter` writes them (`DecimalText`).
struct WireReplyBody {
    /// Where the body's JSON is in the scratch.
    let json: Range<Int>

    /// A reply without a snippet.
    init(_ text: RenderedText, into scratch: inout TextScratch) {
        json = scratch.phrase { scratch in
            scratch.append(#"{"dialog":""#)
            scratch.appendCopy(of: text.dialog)
            scratch.append(byte: UInt8(ascii: "\""))
            Self.appendValue(text.value, to: &scratch)
            scratch.append(byte: UInt8(ascii: "}"))
        }
    }

    /// A reply with the station's snippet card (found and directions).
    init(_ text: RenderedText, card: RenderedText.Card, stationID: UnsafeBufferPointer<UInt8>,
         station: WireStation, postcode: Range<Int>?, pricePence: Double, opensURL: Range<Int>?,
         into scratch: inout TextScratch) {
        json = scratch.phrase { scratch in
            scratch.append(#"{"dialog":""#)
            scratch.appendCopy(of: text.dialog)
            if let opensURL {
                scratch.append(#"","opensURL":""#)
                scratch.appendCopy(of: opensURL)
            }
            scratch.append(#"","snippet":{"freshness":""#)
            scratch.appendCopy(of: card.freshness)
            scratch.append(#"","id":""#)
            scratch.append(stationID)
            scratch.append(#"","lat":"#)
            DecimalText.appendJSONNumber(station.lat, to: &scratch)
            scratch.append(#","lng":"#)
            DecimalText.appendJSONNumber(station.lng, to: &scratch)
            scratch.append(#","postcode":""#)
            if let postcode { scratch.appendCopy(of: postcode) }
            scratch.append(#"","price":""#)
            scratch.appendCopy(of: card.price)
            if let outlier = card.priceOutlier {
                scratch.append(outlier == .low ? #"","priceOutlier":"low"# : #"","priceOutlier":"high"#)
            }
            scratch.append(#"","pricePence":"#)
            DecimalText.appendJSONNumber(pricePence, to: &scratch)
            scratch.append(card.stale ? #","stale":true,"subtitle":""# : #","stale":false,"subtitle":""#)
            scratch.appendCopy(of: card.subtitle)
            scratch.append(#"","title":""#)
            scratch.appendCopy(of: card.title)
            scratch.append(#""}"#)
            Self.appendValue(text.value, to: &scratch)
            scratch.append(byte: UInt8(ascii: "}"))
        }
    }

    private static func appendValue(_ value: Range<Int>?, to scratch: inout TextScratch) {
        guard let value else { return }
        scratch.append(#","value":""#)
        scratch.appendCopy(of: value)
        scratch.append(byte: UInt8(ascii: "\""))
    }

    func write(to out: inout JSONWriter, from scratch: borrowing TextScratch) {
        out.raw(scratch.bytes(json))
    }
}
