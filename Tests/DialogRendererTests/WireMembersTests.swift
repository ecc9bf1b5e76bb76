@testable import DialogRenderer
import Foundation
import Messages
@testable import ServiceKit
import Testing

/// The wire reader takes a body's members from the list the request's strict check made. A frame
/// that list is not a whole index of (objects nested deeper than it reaches) reads the same by
/// walking the bytes; members of a type or shape the reader does not take leave the request to
/// the general path, whose reply or error the handler gives.
struct WireMembersTests {
    /// An id nesting objects deeper than the check lists: the frames carrying it are not indexed.
    private static let deepID = CheckedRequests.nestedID(depth: StrictJSON.deepestListed + 4)

    /// A `found` body with a time of its own (so its render does not depend on the clock) whose
    /// `station` member is `station`, with `extra` members after it.
    private static func found(station: String = WireRenderTests.station, _ extra: String = "") -> String {
        WireRenderTests.found(#","now":"2025-10-09T08:53:20Z""# + extra, station: station)
    }

    /// The station with the member `name` given `value` (`nil`: without the member).
    private static func station(_ name: String, _ value: String?) -> String {
        var members = [#""address":"A""#, #""brand":"B""#, #""id":"x/1""#, #""lat":53.5"#, #""lng":-1.25"#,
                       #""name":"Tesco""#, #""postcode":"P1 1AA""#, #""retailer":"r""#]
        members.removeAll { $0.hasPrefix("\"\(name)\":") }
        if let value { members.append("\"\(name)\":\(value)") }
        return "{" + members.joined(separator: ",") + "}"
    }

    @Test func aFrameNestedDeeperThanTheCheckLists_isNotIndexed() throws {
        let requests = try CheckedRequests()
        #expect(try requests.request(body: Self.found()).membersAreIndex)
        #expect(try !requests.request(body: Self.found(), id: Self.deepID).membersAreIndex)
    }

    @Test(arguments: [0, 1])
    func routerRequestsInDeepFrames_renderAsInIndexedFrames(handlerIndex: Int) throws {
        let requests = try CheckedRequests()
        let handler = handlerIndex == 0 ? Fixtures.handler : WireRenderTests.welshHandler
        var taken = 0
        for request in WireRenderTests.routerRequests(count: 600, seed: UInt64(21 + handlerIndex)) {
            let body = try WireRenderTests.json(request)
            let indexed = try WireRenderTests.wireReply(body, handler, requests)
            let deep = try WireRenderTests.wireReply(body, handler, requests, id: Self.deepID)
            #expect(deep == indexed, "\(body)")
            guard let deep else { continue }
            taken += 1
            #expect(deep == WireRenderTests.generalReply(body, handler), "\(body)")
        }
        #expect(taken > 100)
    }

    /// The requests of a `sys.batch` are handed their members from the batch frame's check.
    @Test func requestsInABatch_areAnsweredAsOnTheirOwn() throws {
        let requests = try CheckedRequests(serving: Fixtures.handler)
        var frames: [String] = []
        // Enough requests that several are station answers whatever the outcomes' number (at most
        // ReplyServer.maxBatchRequests in one batch).
        for (index, var request) in WireRenderTests.routerRequests(count: 900, seed: 31).enumerated() {
            request.now = WireRenderTests.now  // so the replies do not depend on the clock
            let body = try WireRenderTests.json(request)
            frames.append(#"{"v":1,"id":\#(index),"type":"dialog.render","body":\#(body)}"#)
        }
        let alone = frames.map { requests.dispatch(frame: $0) }
        #expect(alone.filter { $0.contains(#""snippet""#) }.count >= 5)
        for id in ["0", Self.deepID] {  // a batch frame the check indexes, and one it does not
            let batch = #"{"v":1,"id":\#(id),"type":"sys.batch","body":{"requests":["#
                + frames.joined(separator: ",") + "]}}"
            let expected = #"{"body":{"replies":["# + alone.joined(separator: ",") + #"]},"id":\#(id),"ok":true,"v":1}"#
            #expect(requests.dispatch(frame: batch) == expected)
        }
    }

    @Test(arguments: [false, true])
    func forEachMember_visitsTheObjectsOwnMembersInOrder(deepFrame: Bool) throws {
        let requests = try CheckedRequests()
        let station = #"{"id":"x/1", "name" : "Te\"sco","lat":53.5,"br\u0061nd":null,"inner":{"a":[1,{"b":2}]}}"#
        let request = try requests.request(body: #"{"outcome":"found","station":"# + station + "}",
                                           id: deepFrame ? Self.deepID : "7")
        #expect(request.membersAreIndex == !deepFrame)
        var object: Range<Int>?
        _ = request.forEachBodyMember { _, key, value in
            if key.matches("station") { object = value }
        }
        let stationObject = try #require(object)
        var visited: [String] = []
        let isObject = request.forEachMember(ofObjectAt: stationObject) { bytes, key, value in
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[value]), as: UTF8.self)
            visited.append(key.text + "=" + text)
        }
        #expect(isObject)
        #expect(visited == [#"id="x/1""#, #"name="Te\"sco""#, "lat=53.5", "brand=null", #"inner={"a":[1,{"b":2}]}"#])
    }

    @Test(arguments: [false, true])
    func forEachMember_ofAnythingButAnObject_visitsNothing(deepFrame: Bool) throws {
        let requests = try CheckedRequests()
        let request = try requests.request(body: #"{"outcome":"found","list":[{"a":1}]}"#,
                                           id: deepFrame ? Self.deepID : "7")
        var values: [Range<Int>] = []
        _ = request.forEachBodyMember { _, _, value in values.append(value) }
        let count = request.payload.count
        for range in values + [0..<0, (count - 1)..<(count + 5), -1..<3] {
            var visits = 0
            #expect(!request.forEachMember(ofObjectAt: range) { _, _, _ in visits += 1 }, "\(range)")
            #expect(visits == 0)
        }
    }

    /// Members of a type or shape the general path refuses: the wire reader declines each, and the
    /// reply is the general path's error.
    private static let illTypedBodies = [
        found(station: #""x/1""#), found(station: "[1]"), found(station: "5"), found(station: "true"),
        found(station: station("lat", #"{"v":53.5}"#)), found(station: station("lat", "[53.5]")),
        found(station: station("lat", "true")), found(station: station("lng", #""-1.25""#)),
        found(station: station("name", "5")), found(station: station("brand", "5")),
        found(station: station("address", "{}")), found(station: station("retailer", "[]")),
        found(station: station("id", "null")), found(station: station("postcode", nil)),
        found(station: station("lat", nil)), found(station: "{}"),
        found().replacingOccurrences(of: #""outcome":"found""#, with: #""outcome":5"#),
        #"{"outcome":["found"]}"#, #"{"outcome":{"is":"found"}}"#, #"{"outcome":"nonsense"}"#,
        found().replacingOccurrences(of: "139.9", with: #""139.9""#),
        found().replacingOccurrences(of: #""B7""#, with: #"["B7"]"#),
        found(#","locale":{"tag":"cy"}"#), found(#","unit":5"#), found(#","radiusMiles":"5""#),
        found().replacingOccurrences(of: #""2025-10-09T05:30:00Z""#, with: "true"),
    ]

    /// Bodies the general path renders but the wire reader does not take.
    private static let untakenBodies = [
        found(station: station("inner", CheckedRequests.nestedID(depth: 20))),
        found(#","inner":"# + CheckedRequests.nestedID(depth: 20)),
        found(#","extra":[1,2]"#), found().replacingOccurrences(of: #""fuel":"B7""#, with: #""fuel":"\u0042\u0037""#),
    ]

    @Test(arguments: illTypedBodies.map { ($0, true) } + untakenBodies.map { ($0, false) })
    func membersTheWireReaderDoesNotTake_getTheGeneralPathsReply(body: String, isError: Bool) throws {
        let requests = try CheckedRequests()
        for id in ["7", Self.deepID] {
            let request = try requests.request(body: body, id: id)
            #expect(Fixtures.handler.wireReplyJSON(to: request, now: WireRenderTests.now) == nil, "\(body)")
            let expected: ReplyServer.Outcome
            do {
                expected = request.reply(try Fixtures.handler.render(request.decodeBody(RenderRequest.self)))
            } catch {
                expected = request.reply(error: ServiceError.from(error))
            }
            let reply = CheckedRequests.replyText(Fixtures.handler.reply(to: request))
            #expect(reply == CheckedRequests.replyText(expected))
            #expect(reply.contains(#""code":"bad_request""#) == isError, "\(reply)")
        }
    }

    /// Keys written with escapes are matched as the decoder matches them, to the same render.
    @Test func keysWrittenWithEscapes_renderAsTheGeneralPathDoes() throws {
        let requests = try CheckedRequests()
        let bodies = [
            Self.found().replacingOccurrences(of: #""outcome""#, with: #""outc\u006fme""#),
            Self.found(station: String(Self.station("name", nil).dropLast()) + #","n\u0061me":"Tesco"}"#),
            Self.found().replacingOccurrences(of: #""fuel""#, with: #""\u0066uel""#),
        ]
        for body in bodies {
            let wire = try #require(try WireRenderTests.wireReply(body, Fixtures.handler, requests), "\(body)")
            #expect(wire == WireRenderTests.generalReply(body, Fixtures.handler))
        }
    }
}
