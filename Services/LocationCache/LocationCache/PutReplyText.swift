import Foundation
import Messages

/// The JSON of put replies, written by `LocationPutReply.writeJSON` and reused while the next
/// reply would be written identically. The reply text depends only on `stored`, the preferences
/// and its two times to the second (the wire's precision), so the puts of one batch, stored in
/// the same second for users with the same preferences, share one text instead of formatting
/// two dates each.
final class PutReplyText {
    /// What a reply's text depends on.
    private struct Key: Equatable {
        var stored: Bool
        var atSecond: Int
        var expiresSecond: Int
        var preferences: Preferences?
    }

    /// The wire writes times digit by digit, to the second rounded down, from 1583-01-01 to
    /// 9999-12-31 (Unix seconds); outside them the text is not cached.
    private static let digitByDigitSeconds = -12_212_553_600.0 ... 253_402_300_799.0

    private var key: Key?
    private var text: [UInt8] = []

    /// `reply` with its text, written once per distinct key; nil when the reply must go its
    /// usual way (a time outside the cached years, or a number the encoder would refuse).
    func written(_ reply: LocationPutReply) -> WrittenPutReply? {
        let at = reply.at.timeIntervalSince1970, expiresAt = reply.expiresAt.timeIntervalSince1970
        guard Self.digitByDigitSeconds.contains(at), Self.digitByDigitSeconds.contains(expiresAt) else { return nil }
        let key = Key(stored: reply.stored, atSecond: Int(at.rounded(.down)),
                      expiresSecond: Int(expiresAt.rounded(.down)), preferences: reply.preferences)
        if key != self.key {
            var writer = JSONWriter(capacity: 160)
            reply.writeJSON(to: &writer)
            guard !writer.wroteNonFinite else { return nil }
            text = writer.bytes
            self.key = key
        }
        return WrittenPutReply(reply: reply, text: text)
    }
}

/// A put reply with its JSON already written: the reply server copies the text into the envelope.
struct WrittenPutReply: Encodable, JSONWritable {
    let reply: LocationPutReply
    let text: [UInt8]

    func encode(to encoder: any Encoder) throws {
        try reply.encode(to: encoder)
    }

    func writeJSON(to writer: inout JSONWriter) {
        writer.raw(text)
    }
}
