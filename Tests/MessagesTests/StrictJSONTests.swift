import Foundation
import Messages
import Testing
import TestSupport

struct StrictJSONTests {
    @Test(arguments: [#"{}"#, #"[]"#, #" {"a": [1, -0.5e+3, "x\u00e9\n", true, false, null, {}]} "#, "0", #""é""#,
                      #"{"a":{"b":[[[]]]}}"#])
    func check_whenValid_accepts(text: String) {
        #expect(StrictJSON.check(Data(text.utf8)) == nil)
    }

    @Test(arguments: [#"{"a":1,}"#, #"[1,]"#, #"{"a":[-]}"#, #"{"a":01}"#, #"{"a":"\x"}"#, #"{"a" 1}"#, "",
                      #"{"a":1}x"#, "[1.]", "[.5]", "tru", #"{"a":"\#u{01}"}"#, "[1e]", #"{'a':1}"#, "[NaN]"])
    func check_whenInvalid_refuses(text: String) {
        #expect(StrictJSON.check(Data(text.utf8)) != nil)
    }

    @Test func check_whenBytesAreNotUTF8_refuses() {
        #expect(StrictJSON.check([0x22, 0xFF, 0x22]) != nil)
        #expect(StrictJSON.check([0x22, 0xC0, 0xAF, 0x22]) != nil)       // overlong
        #expect(StrictJSON.check([0x22, 0xED, 0xA0, 0x80, 0x22]) != nil) // surrogate
    }

    @Test func check_whenNestedTooDeep_refusesWithoutCrashing() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(StrictJSON.check(Data(deep.utf8))?.reason.contains("nesting") == true)
    }

    @Test(.enabled(if: SharedData.isPresent, Comment(rawValue: SharedData.absentMessage)))
    func check_agreesWithJSONTestSuite() throws {
        let folder = SharedData.directory.appendingPathComponent("jsontestsuite/test_parsing")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        var checked = 0
        for name in files where name.hasPrefix("y_") || name.hasPrefix("n_") {
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            let accepted = StrictJSON.check(data) == nil
            #expect(accepted == name.hasPrefix("y_"), "\(name)")
            checked += 1
        }
        #expect(checked > 250)
    }
}
