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
}
