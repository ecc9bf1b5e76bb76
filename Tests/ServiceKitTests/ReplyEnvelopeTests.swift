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

    @Test func aBatchReply_givesEachReplyInOrder_readableAsAnyOther() throws {
        let inner = [
            #"{"body":{"radiusMiles":3,"unit":"miles"},"id":"a","ok":true,"v":1}"#,
            #"{"error":{"code":"not_found","message":"no"},"id":"b","ok":false,"v":1}"#,
            #"7"#,
            #" {"body":{"radiusMiles":1.5,"unit":"km"},"id":"c\u002dd","ok":true,"v":1} "#,
        ]
        let text = #"{"body":{"replies":[\#(inner.joined(separator: ","))]},"id":"b1","ok":true,"v":1}"#
        // A frame sliced from a larger buffer: ranges count from its own first byte.
        let framed = Data("xx".utf8) + Data(text.utf8)
        let batch = try #require(ReplyEnvelope(framed[2...]))
        let replies = try #require(batch.batchReplies)
        #expect(replies.map(\.id) == ["a", "b", "c-d"], "the element that is not an object is left out")
        #expect(try replies[0].result(as: Preferences.self, from: "x").get() == Preferences(radiusMiles: 3, unit: .miles))
        #expect(replies[1].serviceError?.code == .notFound)
        #expect(try replies[2].result(as: Preferences.self, from: "x").get() == Preferences(radiusMiles: 1.5, unit: .km))
    }

    @Test func aBatchReply_takesOnlyTheObjectsOfItsRepliesArrayAsReplies() throws {
        let text = #"{"body":{"other":[{"id":"no"}],"replies":[[{"id":"nested"}],{"body":{"results":[{"id":"deep"}]},"id":"a","ok":true,"v":1},{},{"id":"b","ok":false}],"more":[{"id":"after"}]},"id":"b1","ok":true,"v":1}"#
        let envelope = try #require(ReplyEnvelope(Data(text.utf8)))
        let replies = try #require(envelope.batchReplies)
        #expect(replies.map(\.id) == ["a", "b"])
        #expect(replies.map(\.ok) == [true, false])
    }

    @Test(arguments: [
        #"{"body":{"radiusMiles":3},"id":"a","ok":true,"v":1}"#,
        #"{"body":{"replies":{}},"id":"a","ok":true,"v":1}"#,
        #"{"error":{"replies":[]},"id":"a","ok":false,"v":1}"#,
        #"{"body":{"other":{"replies":[]}},"id":"a","ok":true,"v":1}"#,
    ])
    func aReplyThatIsNotABatchReply_hasNoBatchReplies(text: String) throws {
        #expect(try #require(ReplyEnvelope(Data(text.utf8))).batchReplies == nil)
    }
}
