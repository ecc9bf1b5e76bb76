@testable import FuelboardCLI
import Messages
import Testing

/// The generator reads each reply without decoding it: the same id, `ok` and error code on the
/// quick path (lookups) as from the member list (assistant answers, which also give code and outcome).
struct ReplyScanTests {
    private static func read(_ text: String, answers: Bool) -> ReplyScan? {
        var members: [StrictJSON.Member] = []
        return Array(text.utf8).withUnsafeBufferPointer { ReplyScan.read($0, members: &members, answers: answers) }
    }

    @Test(arguments: [false, true])
    func aLookupReply_givesItsIdAndOk(answers: Bool) {
        let reply = #"{"body":{"results":[{"station":{"id":"9"},"pricePence":139.9}]},"id":"42","ok":true,"v":1}"#
        #expect(Self.read(reply, answers: answers)?.id == 42)
        #expect(Self.read(reply, answers: answers)?.ok == true)
    }

    @Test(arguments: [false, true])
    func anErrorReply_givesItsCode(answers: Bool) {
        let reply = #"{"error":{"code":"bad_request","message":"no"},"id":"7","ok":false,"v":1}"#
        let scan = Self.read(reply, answers: answers)
        #expect(scan?.id == 7 && scan?.ok == false && scan?.errorCode == "bad_request")
    }

    @Test func anAssistantAnswer_givesItsCodeAndOutcome() {
        let reply = #"{"body":{"code":"failure","dialog":"Sorry","outcome":"pricesUnavailable"},"id":"3","ok":true,"v":1}"#
        let scan = Self.read(reply, answers: true)
        #expect(scan == ReplyScan(id: 3, ok: true, answerCode: "failure", outcome: "pricesUnavailable"))
    }

    @Test(arguments: [false, true], [#"{"id":"1","ok":true,}"#, #"{"ok":true}"#, #"{"id":"x1","ok":true}"#, "[1]", ""])
    func aReplyThatIsNotJSON_orHasNoIdOfOurs_isNotRead(answers: Bool, text: String) {
        #expect(Self.read(text, answers: answers) == nil, "\(text)")
    }

    @Test(arguments: [
        #"{ "body": {"results": []}, "id": "42", "ok": true, "v": 1 }"#,
        #"{"id":"42","ok":true,"v":1,"body":{"results":[{"station":{"id":"77"},"pricePence":139.9}]}}"#,
        #"{"ok":true,"id":42,"body":{"results":[]}}"#,
        #"{"body":{"results":[{"station":{"id":"77"}}]},"id" : "42","ok":true}"#,
    ])
    func anyValidEnvelope_isRead_whateverItsSpacingOrKeyOrder(text: String) {
        // The quick path only knows the services' own writing; the member list reads the rest.
        #expect(Self.read(text, answers: false) == ReplyScan(id: 42, ok: true), "\(text)")
    }

    @Test(arguments: [
        #"{"ok":true,"id":"42","body":{"id":"9","ok":false,"v":1}}"#,
        #"{"body":{"results":[]},"id":"42","ok":true,"type":"lookup.cheapest","v":1}"#,
    ])
    func aBodyEndingAsAnEnvelopeDoes_orMoreMembersAfterTheId_areReadRight(text: String) {
        #expect(Self.read(text, answers: false) == ReplyScan(id: 42, ok: true), "\(text)")
    }

    @Test func anIdInTheBody_isNotTakenForTheEnvelopes() {
        // Sorted keys would put the envelope's id last; here a station's comes last.
        let reply = #"{"id":"5","ok":false,"error":{"code":"unavailable"},"body":{"station":{"id":"99"}}}"#
        let scan = Self.read(reply, answers: false)
        #expect(scan?.id == 5 && scan?.ok == false && scan?.errorCode == "unavailable", "\(String(describing: scan))")
    }

    @Test(arguments: [(#"{"id":"12","ok":tru"#, 12), (#"{"id": 7, "ok": true,,}"#, 7), ("garbage", nil)])
    func theIdOfAReplyThatIsNotJSON_isFoundAsText(text: String, id: Int?) {
        #expect(Self.read(text, answers: false) == nil)
        #expect(Array(text.utf8).withUnsafeBufferPointer { ReplyScan.looseID($0) } == id)
    }

    @Test(arguments: [(#"{"id":"abc","ok":true}"#, true), (#"{"id": -3}"#, true), (#"{"id":null,"ok":false}"#, false),
                      (#"{"ok":true}"#, false), ("garbage", false)])
    func aReplyNamingAnotherId_isToldFromOneNamingNone(text: String, foreign: Bool) {
        #expect(Array(text.utf8).withUnsafeBufferPointer { ReplyScan.namesForeignID($0) } == foreign)
    }
}
