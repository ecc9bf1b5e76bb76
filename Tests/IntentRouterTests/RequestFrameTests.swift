import Foundation
@testable import IntentRouter
import Messages
import Testing

/// The router's request frames: its envelope written by hand around the body.
struct RequestFrameTests {
    @Test func aRequestFrame_isTheEnvelopeAroundTheEncodedBody() throws {
        let frame = try RequestFrame.make(id: "p-1", type: "location.get", body: UserRequest(user: "u \"1\""))
        let decoded = try JSONSerialization.jsonObject(with: frame) as? [String: Any]
        #expect(decoded?["v"] as? Int == 1)
        #expect(decoded?["id"] as? String == "p-1")
        #expect(decoded?["type"] as? String == "location.get")
        #expect((decoded?["body"] as? [String: Any])?["user"] as? String == "u \"1\"")
    }
}
