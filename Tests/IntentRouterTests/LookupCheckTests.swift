@testable import FuelboardCLI
import Messages
import Testing

/// A lookup reply is checked against its query: a reply for another fuel, a station out of range,
/// an implausible price, results out of order or an empty body fail validation.
struct LookupCheckTests {
    private static let query = LookupQuery(fuel: "B7", point: Coordinate(lat: 53.8, lng: -1.55), radiusMiles: 5,
                                           limit: 3)

    /// A result at `lat`, `lng` (a station 0.6 miles north of the query point by default).
    private static func result(price: Double = 139.9, distance: Double = 0.6, fuel: String = "B7",
                               lat: Double = 53.8087, lng: Double = -1.55) -> String {
        #"{"distanceMiles":\#(distance),"fuel":"\#(fuel)","pricePence":\#(price),"station":{"id":"s","lat":\#(lat),"#
            + #""lng":\#(lng),"name":"S"},"updated":"2026-11-30T10:00:00Z"}"#
    }

    private static func problem(_ body: String, nearest: Bool = false, query: LookupQuery = query)
        -> LookupCheck.Problem? {
        let reply = #"{"body":\#(body),"id":"1","ok":true,"v":1}"#
        var members: [StrictJSON.Member] = []
        return Array(reply.utf8).withUnsafeBufferPointer { bytes in
            _ = ReplyScan.read(bytes, members: &members, answers: false, list: true)
            return LookupCheck.problem(in: bytes, members: members, query: query, nearest: nearest)
        }
    }

    @Test func aReplyThatAnswersTheQuery_passes() {
        let results = [Self.result(price: 135.9, distance: 0.6), Self.result(price: 135.9, distance: 1.2, lat: 53.8174),
                       Self.result(price: 139.9, distance: 0.3, lat: 53.8043)]
        #expect(Self.problem(#"{"results":[\#(results.joined(separator: ","))]}"#) == nil)
        #expect(Self.problem(#"{"results":[]}"#) == nil)
        // Spaces and another key order are the same reply.
        #expect(Self.problem(#"{ "results" : [ \#(Self.result()) ], "version": 3 }"#) == nil)
    }

    @Test(arguments: [
        (#"{}"#, LookupCheck.Problem.noResults),
        (#"{"results":{}}"#, .noResults),
        (#"{"results":[\#(result(fuel: "E10"))]}"#, .wrongFuel),
        (#"{"results":[\#(result(price: -1))]}"#, .implausiblePrice),
        (#"{"results":[\#(result(price: 0))]}"#, .implausiblePrice),
        (#"{"results":[\#(result(price: 13990))]}"#, .implausiblePrice),
        // 8.3 miles north, said to be 0.6: the station's position gives it away.
        (#"{"results":[\#(result(distance: 0.6, lat: 53.92))]}"#, .outsideRadius),
        (#"{"results":[\#(result(distance: 7.5))]}"#, .outsideRadius),
        (#"{"results":[\#(result(price: 139.9)),\#(result(price: 135.9))]}"#, .outOfOrder),
        (#"{"results":[\#(result(distance: 1.2, lat: 53.8174)),\#(result(distance: 0.6))]}"#, .outOfOrder),
        (#"{"results":[{"fuel":"B7","pricePence":139.9}]}"#, .incomplete),
        (#"{"results":[\#(result()),\#(result()),\#(result()),\#(result())]}"#, .tooMany),
    ])
    func aReplyThatDoesNotAnswerTheQuery_failsSayingWhy(body: String, expected: LookupCheck.Problem) {
        #expect(Self.problem(body) == expected, "\(body)")
    }

    @Test func nearest_isInOrderOfDistance_whateverThePrices() {
        let results = [Self.result(price: 149.9, distance: 0.3, lat: 53.8043), Self.result(price: 129.9, distance: 0.6)]
        let body = #"{"results":[\#(results.joined(separator: ","))]}"#
        #expect(Self.problem(body, nearest: true) == nil)
        #expect(Self.problem(body, nearest: false) == .outOfOrder)
    }

    @Test func aStationJustOnTheRadius_passes_withinTheRoundingAllowed() {
        // 5.0 miles written for 5.004: distances are written to a hundredth.
        #expect(Self.problem(#"{"results":[\#(Self.result(distance: 5.0, lat: 53.8724))]}"#) == nil)
    }
}
