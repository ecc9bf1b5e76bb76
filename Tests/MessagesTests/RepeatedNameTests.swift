import Foundation
import Messages
import Testing

/// A name given twice in one object: the router read an utterance's first "utterance" and
/// fuel-lookup a body's last "fuel". Found in one object at any depth, escapes resolved; the same
/// name in two objects is no repeat.
struct RepeatedNameTests {
    /// The repeated name `text` has, and where its second key opens; nil when none.
    private func repeated(_ text: String) -> (name: String, offset: Int)? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer -> (String, Int)? in
            var members: [StrictJSON.Member] = []
            var listedAll = false
            #expect(StrictJSON.check(buffer, members: &members, listedAll: &listedAll) == nil, "\(text)")
            guard let member = members.withUnsafeBufferPointer({ StrictJSON.repeatedName(among: $0, in: buffer) }) else {
                return nil
            }
            let refusal = StrictJSON.RepeatedName(member, in: buffer, of: "request")
            return (refusal.name, refusal.offset)
        }
    }

    @Test func aNameTwiceInTheEnvelopeOrTheBody_isFound_withWhereItsSecondKeyOpens() {
        let envelope = #"{"v":1,"type":"sys.ping","v":2}"#
        #expect(repeated(envelope)?.name == "v")
        #expect(repeated(envelope)?.offset == 25)
        #expect(repeated(#"{"type":"lookup.cheapest","body":{"fuel":"E10","lat":1,"fuel":"B7"}}"#)?.name == "fuel")
        #expect(repeated(#"{"body":{"location":{"lat":1,"lng":2,"lat":3}}}"#)?.name == "lat")
    }

    @Test func theSameNameInDifferentObjects_isNoRepeat() {
        #expect(repeated(#"{"id":"1","body":{"id":"2","station":{"id":"3"}},"x":{"id":4}}"#) == nil)
        #expect(repeated(#"[{"a":1},{"a":2},{"a":{"a":{"a":3}}}]"#) == nil)
        #expect(repeated(#"{"type":"sys.batch","body":{"requests":[{"id":"a","body":{"fuel":"B7"}},{"id":"b","body":{"fuel":"E10"}}]}}"#) == nil)
    }

    @Test func aRepeatInsideABatchsInnerRequest_isFound() {
        let batch = #"{"type":"sys.batch","body":{"requests":[{"id":"a","body":{"fuel":"B7"}},{"id":"b","body":{"fuel":"E10","fuel":"B7"}}]}}"#
        #expect(repeated(batch)?.name == "fuel")
    }

    @Test func namesAreComparedWithTheirEscapesResolved() {
        #expect(repeated(#"{"fuel":"E10","f\u0075el":"B7"}"#)?.name == "fuel")
        #expect(repeated(#"{"f\u0075el":"E10","fu\u0065l":"B7"}"#)?.name == "fuel")
        #expect(repeated(#"{"fuel":"E10","fuels":"B7","fue":1}"#) == nil)
    }

    /// Past its budget of steps (a wide object would make looking back quadratic) the names go
    /// through a set; it finds the same repeats. A batch of requests stays within the budget.
    @Test func aWideObject_isCheckedThroughASet_withTheSameAnswers() {
        let wide = (0..<5_000).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
        #expect(repeated("{\(wide)}") == nil)
        #expect(repeated("{\(wide),\"k4999\":1}")?.name == "k4999")
        #expect(repeated("{\(wide),\"inner\":{\"k1\":1,\"k1\":2}}")?.name == "k1")
        #expect(repeated("{\"a\":{\(wide)},\"b\":{\(wide)}}") == nil)
        #expect(repeated("{\(wide),\"k\\u0031\":1}")?.name == "k1")
    }

    /// Valid JSON the decoder will not read (a number a double cannot hold) is said so, not called
    /// "The given data was not valid JSON." (a plug-in's reply with 1e400 was).
    @Test(arguments: ["1e400", "-1e400", "1e-400"])
    func jsonCoding_saysAValueCannotBeRead_ofValidJSONTheDecoderRefuses(number: String) throws {
        struct Body: Codable { let x: Double }
        let error = try #require(throws: DecodingError.self) {
            try JSONCoding.decode(Body.self, from: Data(#"{"x":\#(number)}"#.utf8))
        }
        #expect(ServiceError.describe(error) == JSONCoding.unreadableValue, "\(error)")
        // Not JSON at all: still the decoder's words.
        let broken = try #require(throws: DecodingError.self) { try JSONCoding.decode(Body.self, from: Data("{x".utf8)) }
        #expect(ServiceError.describe(broken) != JSONCoding.unreadableValue)
    }

    /// Past 1 MiB (a replica's snapshot, price-ingest's own output) a document is not listed for
    /// repeats, which cost memory at a million stations; it is still checked as JSON.
    @Test func jsonCoding_doesNotListDocumentsPast1MiB_forRepeats() throws {
        struct Body: Codable { let fuel: String; let pad: String }
        let pad = String(repeating: "x", count: JSONCoding.repeatedNameCheckLimit)
        let big = Data(#"{"fuel":"E10","fuel":"B7","pad":"\#(pad)"}"#.utf8)
        #expect(try JSONCoding.decode(Body.self, from: big).pad.count == pad.count)
        #expect(throws: (any Error).self) { try JSONCoding.decode(Body.self, from: Data(#"{"fuel":"E10",}"#.utf8)) }
    }

    @Test func jsonCoding_refusesARepeatedName_unlessAskedToAllowIt() throws {
        struct Body: Codable { let fuel: String }
        let data = Data(#"{"fuel":"E10","fuel":"B7"}"#.utf8)
        let error = try #require(throws: StrictJSON.RepeatedName.self) { try JSONCoding.decode(Body.self, from: data) }
        #expect(error.description == #"the message names "fuel" twice in one object (at byte 14): each name may appear once"#)
        #expect(try JSONCoding.decode(Body.self, from: data, allowingRepeatedNames: true).fuel.isEmpty == false)
        #expect(try JSONCoding.decode(Body.self, from: Data(#"{"fuel":"E10"}"#.utf8)).fuel == "E10")
    }
}
