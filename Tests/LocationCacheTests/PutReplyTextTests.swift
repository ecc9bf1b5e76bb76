import Foundation
@testable import LocationCache
import Messages
import Testing

/// Put replies whose text is reused within a batch are byte for byte what `LocationPutReply`
/// writes for each of them.
struct PutReplyTextTests {
    private static func json(_ writable: some JSONWritable) -> String {
        var writer = JSONWriter()
        writable.writeJSON(to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    private static func reply(at: Date, stored: Bool = true, preferences: Preferences? = .default) -> LocationPutReply {
        LocationPutReply(stored: stored, at: at, expiresAt: at + 24 * 3600, preferences: preferences)
    }

    /// Replies that share texts and replies that do not, in the order a batch could bring them.
    private static let replies: [LocationPutReply] = {
        let start = TestClock.start
        return [
            reply(at: start + 0.1), reply(at: start + 0.9), reply(at: start + 0.999_999),
            reply(at: start + 1), reply(at: start + 1.5, stored: false),
            reply(at: start + 1.5, preferences: Preferences(radiusMiles: 12.5, unit: .km)),
            reply(at: start + 1.5, preferences: nil), reply(at: start - 0.5), reply(at: start + 1.5),
            reply(at: Date(timeIntervalSince1970: -12_212_553_600)),
        ]
    }()

    @Test func written_isTheTextLocationPutReplyWrites_forEveryReplyInTurn() throws {
        let text = PutReplyText()
        for reply in Self.replies {
            let written = try #require(text.written(reply))
            #expect(Self.json(written) == Self.json(reply))
            #expect(written.reply == reply)
        }
    }

    @Test func written_withinOneSecond_reusesOneText() throws {
        let text = PutReplyText()
        let first = try #require(text.written(Self.replies[0]))
        let second = try #require(text.written(Self.replies[2]))
        #expect(first.text == second.text)
        #expect(Self.json(second).contains("2025-10-09T12:00:00Z"))
        #expect(Self.json(try #require(text.written(Self.replies[3]))).contains("2025-10-09T12:00:01Z"))
    }

    @Test func written_whenATimeIsOutsideTheDigitByDigitYears_isNil() {
        let text = PutReplyText()
        #expect(text.written(Self.reply(at: Date(timeIntervalSince1970: -12_212_553_601))) == nil)
        #expect(text.written(Self.reply(at: Date(timeIntervalSince1970: 253_402_300_799))) == nil)
    }

    @Test func written_whenANumberIsNotFinite_isNil() {
        let text = PutReplyText()
        let reply = Self.reply(at: TestClock.start, preferences: Preferences(radiusMiles: .infinity, unit: .km))
        #expect(text.written(reply) == nil)
    }
}
