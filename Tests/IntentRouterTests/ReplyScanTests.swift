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
}
