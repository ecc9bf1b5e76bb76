import Foundation
import Messages

/// A request frame written by hand around its body, which is written by hand too where its type
/// can (ids and types are ASCII names of ours, never escaped).
enum RequestFrame {
    static func make<Body: Encodable>(id: String, type: String, body: Body) throws -> Data {
        try make(type: type, body: body) { frame in frame.raw(id.utf8) }
    }

    /// A frame whose id is `<prefix>-<number>` (a backend channel's calls).
    static func make<Body: Encodable>(idPrefix: String, number: UInt64, type: String, body: Body) throws -> Data {
        try make(type: type, body: body) { frame in
            frame.raw(idPrefix.utf8)
            frame.byte(UInt8(ascii: "-"))
            frame.integer(number)
        }
    }

    private static func make<Body: Encodable>(type: String, body: Body, id writeID: (inout JSONWriter) -> Void) throws
        -> Data
    {
        var frame = JSONWriter(capacity: 320)
        frame.raw(#"{"v":1,"id":""#)
        writeID(&frame)
        frame.raw(#"","type":""#)
        frame.raw(type.utf8)
        frame.raw(#"","body":"#)
        try frame.encodable(body)
        frame.byte(UInt8(ascii: "}"))
        return frame.data
    }
}
