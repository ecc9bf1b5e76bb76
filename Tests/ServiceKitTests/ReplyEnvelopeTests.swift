import Foundation
import Messages
import ServiceKit
import Testing

/// Replies are read in place: id, success, body or error, as a decoder would read them.
struct ReplyEnvelopeTests {
    @Test func aSuccessReply_givesItsIdAndDecodesItsBody() throws {
        let frame = Data(#"{"body":{"radiusMiles":12.5,"unit":"km"},"id":"ab-7","ok":true,"v":1}"#.utf8)
        let reply = try #require(ReplyEnvelope(frame))
        #expect(reply.id == "ab-7")
        #expect(reply.ok)
        #expect(try reply.result(as: Preferences.self, from: "location-cache").get()
                == Preferences(radiusMiles: 12.5, unit: .km))
    }

    @Test func anErrorReply_givesItsError() throws {
        let frame = Data(#"{ "v":1, "ok": false, "id": "x\u002d1", "error": {"code":"not_found","message":"no"} }"#.utf8)
        let reply = try #require(ReplyEnvelope(frame))
        #expect(reply.id == "x-1")
        #expect(!reply.ok)
        #expect(reply.serviceError?.code == .notFound)
        #expect(throws: ServiceError.self) { try reply.result(as: Preferences.self, from: "location-cache").get() }
    }

    @Test(arguments: ["", "nope", "[1,2]", #"{"id":"a","ok":true,}"#, "{\"id\":\"a\"", #"{"id":"\#u{1}"}"#])
    func aFrameThatIsNotAJSONObject_isRefused(text: String) {
        #expect(ReplyEnvelope(Data(text.utf8)) == nil)
    }

    @Test func aBodyOfTheWrongShape_isAnInternalError() throws {
        let reply = try #require(ReplyEnvelope(Data(#"{"body":{"radiusMiles":"far"},"id":"a","ok":true,"v":1}"#.utf8)))
        let result = reply.result(as: Preferences.self, from: "location-cache")
        #expect(throws: ServiceError(.internal, "unreadable reply from location-cache")) { try result.get() }
    }
}
