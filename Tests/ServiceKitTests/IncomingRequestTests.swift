import Foundation
import Messages
@testable import ServiceKit
import Testing
import ZeroMQ

/// `IncomingRequest` reads a frame in place: every range it finds counts from the payload's
/// first byte, whichever index of a `Data` that is.
struct IncomingRequestTests {
    private struct Point: Codable, Sendable, Equatable {
        var lat: Double
        var lng: Double
    }

    @Test(arguments: [0, 1, 13])
    func aPayloadSlicedFromALargerBuffer_readsItsOwnBodyAndID(leading: Int) throws {
        let context = Context()
        defer { context.shutdown() }
        let server = try ReplyServer(name: "test", context: context, bind: "tcp://127.0.0.1:*",
                                     logger: Logger(label: "test", level: .critical))
        let frame = #"{"v":1,"id":{"n":[1,2]},"type":"test.point","body":{"lat":52.5,"lng":-1.25}}"#
        let whole = Data(String(repeating: "#", count: leading).utf8) + Data(frame.utf8)
        let payload = whole[(whole.startIndex + leading)...]
        var request = IncomingRequest(route: [], payload: payload, server: server)
        try request.decodeHead()
        #expect(String(decoding: request.bodyData, as: UTF8.self) == #"{"lat":52.5,"lng":-1.25}"#)
        #expect(try request.decodeBody(Point.self) == Point(lat: 52.5, lng: -1.25))
        #expect(String(decoding: request.idJSON, as: UTF8.self) == #"{"n":[1,2]}"#)
    }

    /// `logID` as first written: the id's JSON text decoded (66 bytes at most), without its
    /// quotes, 64 characters at most; `-` for none or `null`; a string written with escapes or
    /// beyond ASCII, its characters (cut as JSON text, an escape lost its end, "\u20", and a
    /// character its last bytes).
    private static func referenceLogID(_ idJSON: [UInt8]) -> String {
        guard idJSON != Array("null".utf8) else { return "-" }
        if idJSON.first == UInt8(ascii: "\""),
           idJSON.contains(where: { $0 == UInt8(ascii: "\\") || $0 >= 0x80 || $0 < 0x20 }),
           let text = try? JSONDecoder().decode(String.self, from: Data(idJSON)) {
            return String(text.prefix(64))
        }
        var text = String(decoding: idJSON.prefix(66), as: UTF8.self)
        if text.hasPrefix("\"") { text.removeFirst() }
        if text.hasSuffix("\"") { text.removeLast() }
        return String(text.prefix(64))
    }

    @Test func logID_isTheIDTrimmedAndBounded_forEveryShapeOfID() throws {
        let context = Context()
        defer { context.shutdown() }
        let server = try ReplyServer(name: "test", context: context, bind: "tcp://127.0.0.1:*",
                                     logger: Logger(label: "test", level: .critical))
        var ids = [#""""#, #""a""#, #""load-17""#, "42", "-1.5e3", "null", "true", #"{"k":[1,"two"]}"#,
                   #""a\"b""#, #""ü-café""#, "{\r\n\"k\":1}", #""\u00e9""#, "[1,\t2]",
                   "\"" + String(repeating: "e", count: 60) + #"\u2028\u2028""#]
        for length in [60, 63, 64, 65, 66, 67, 80, 200] {
            ids.append("\"" + String(repeating: "x", count: length) + "\"")
            ids.append("\"" + String(repeating: "é", count: length / 2) + "\"")
            ids.append("[" + Array(repeating: "1", count: length / 2).joined(separator: ",") + "]")
            ids.append("\"" + String(repeating: "a", count: length - 1) + "\\\"\"")
        }
        for id in ids {
            let frame = #"{"v":1,"id":"# + id + #","type":"sys.ping","body":{}}"#
            var request = IncomingRequest(route: [], payload: Data(frame.utf8), server: server)
            try request.decodeHead()
            #expect(request.logID == Self.referenceLogID(request.idJSON), "id \(id)")
            #expect(!request.logID.hasSuffix("\\u20"), "id \(id)")
        }
        var none = IncomingRequest(route: [], payload: Data("not json".utf8), server: server)
        _ = try? none.decodeHead()
        #expect(none.logID == "-")
    }
}
