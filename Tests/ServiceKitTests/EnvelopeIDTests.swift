@testable import ServiceKit
import Testing

/// The request id a log line about an undelivered reply names, read back from the reply.
struct EnvelopeIDTests {
    @Test(arguments: [
        (#"{"body":{"station":{"id":"tesco/1"}},"id":"req-7","ok":true,"v":1}"#, "req-7"),
        (#"{"body":{},"id":42,"ok":true,"v":1}"#, "42"),
        (#"{"error":{"code":"bad_request","message":"x"},"id":null,"ok":false,"v":1}"#, "-"),
        (#"not an envelope"#, "-"),
        (#"{"body":{},"id":"\#u{7}bell","ok":true,"v":1}"#, "-"),
    ])
    func envelopeID_isTheEnvelopesOwnIdNotOneInTheBody(reply: String, id: String) {
        #expect(ReplyServer.envelopeID(of: Array(reply.utf8)) == id)
    }
}
