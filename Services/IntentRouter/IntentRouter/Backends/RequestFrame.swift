import Foundation
import Messages

/// A request frame written by hand around its body, which is written by hand too where its type
/// can (ids and types are ASCII names of ours, never escaped).
enum RequestFrame {
    static func make<Body: Encodable>(id: String, type: String, body: Body) throws -> Data {
        var frame = JSONWriter(capacity: 320)
        frame.raw(#"{"v":1,"id":""#)
        frame.raw(id.utf8)
        frame.raw(#"","type":""#)
        frame.raw(type.utf8)
        frame.raw(#"","body":"#)
        try frame.encodable(body)
        frame.byte(UInt8(ascii: "}"))
        return frame.data
    }
}
