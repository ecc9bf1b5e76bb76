import Foundation
@testable import Messages
import Testing

/// `JSONObjectReader` reads members and numbers in place, as a full decoder would.
struct JSONObjectReaderTests {
    private static func number(_ text: String) -> Double? {
        Array(text.utf8).withUnsafeBufferPointer { JSONObjectReader.number($0, 0..<$0.count) }
    }

    @Test func numbers_readTheSameAsStrtod() {
        var random = SystemRandomNumberGenerator()
        var texts = ["0", "-0", "1", "-1", "0.5", "52.123456", "-1.000001", "145.9", "0.000000000000000000000001",
                     "123456789012345", "1234567890123456", "12345678901234567890", "1e3", "1E-3", "-2.5e+10",
                     "0.1", "0.2", "0.3", "9007199254740993", "1.7976931348623157e308", "4.9e-324",
                     "3.141592653589793238462643383279"]
        for _ in 0..<3000 {
            let digits = Int.random(in: 1...19, using: &random)
            var text = Bool.random(using: &random) ? "-" : ""
            let point = Int.random(in: 0...digits, using: &random)
            for position in 0..<digits {
                if position == point && position > 0 { text += "." }
                text += String(Int.random(in: position == 0 ? 1...9 : 0...9, using: &random))
            }
            texts.append(text)
        }
        for text in texts {
            let expected = strtod(text, nil)
            let read = Self.number(text)
            #expect(read == expected && read?.sign == expected.sign, "\(text): read \(String(describing: read))")
        }
    }

    @Test func nonNumbers_areNotNumbers() {
        #expect(Self.number("\"1\"") == nil)
        #expect(Self.number("true") == nil)
        #expect(Self.number("") == nil)
    }

    @Test func members_areFoundWithTheirValueRanges_andEscapedKeysMatch() {
        let text = #"{"lat": 52.5 , "l\u0061t2":"x","body":{"a":[1,2,{"b":"}"}]},"n":null}"#
        let bytes = Array(text.utf8)
        var seen: [(String, String)] = []
        var latMatches = 0, escapedMatches = 0
        let isObject = bytes.withUnsafeBufferPointer { buffer in
            JSONObjectReader.forEachMember(buffer, in: 0..<buffer.count) { key, value in
                seen.append((key.text, String(decoding: buffer[value], as: UTF8.self)))
                if key.matches("lat") { latMatches += 1 }
                if key.matches("lat2") { escapedMatches += 1 }
            }
        }
        #expect(isObject)
        #expect(seen.map(\.0) == ["lat", "lat2", "body", "n"])
        #expect(seen.map(\.1) == ["52.5", "\"x\"", #"{"a":[1,2,{"b":"}"}]}"#, "null"])
        #expect(latMatches == 1)
        #expect(escapedMatches == 1)
    }

    @Test func elements_areFoundWithTheirRanges_andANonArrayHasNone() {
        let text = #" [ 1 , "a,]" , {"k":[2,3]} ,[] ,null] "#
        let bytes = Array(text.utf8)
        var found: [String] = []
        let isArray = bytes.withUnsafeBufferPointer { buffer in
            JSONObjectReader.forEachElement(buffer, in: 0..<buffer.count) { range in
                found.append(String(decoding: buffer[range], as: UTF8.self))
            }
        }
        #expect(isArray)
        #expect(found == ["1", #""a,]""#, #"{"k":[2,3]}"#, "[]", "null"])
        let notArray = Array(#"{"a":[1]}"#.utf8).withUnsafeBufferPointer { buffer in
            JSONObjectReader.forEachElement(buffer, in: 0..<buffer.count) { _ in Issue.record("no elements expected") }
        }
        #expect(!notArray)
    }

    @Test func membersWalkedFromAStart_giveTheObjectsEnd_soAnArrayOfObjectsIsReadInOnePass() {
        let text = #"[ {"a":1,"b":{"c":[2]}} , 7, {"d":"}"} ]"#
        let bytes = Array(text.utf8)
        var keys: [String] = [], ends: [Int] = []
        let isArray = bytes.withUnsafeBufferPointer { buffer in
            JSONObjectReader.forEachElement(buffer, in: 0..<buffer.count) { start -> Int? in
                let end = JSONObjectReader.forEachMember(buffer, from: start, limit: buffer.count) { key, _ in
                    keys.append(key.text)
                }
                if let end { ends.append(end) }
                return end
            }
        }
        #expect(isArray)
        #expect(keys == ["a", "b", "d"], "the number is skipped, the nested object's keys are not members")
        let first = text.range(of: #"{"a":1,"b":{"c":[2]}}"#)!
        let last = text.range(of: #"{"d":"}"}"#)!
        #expect(ends == [text.utf8.distance(from: text.startIndex, to: first.upperBound),
                         text.utf8.distance(from: text.startIndex, to: last.upperBound)])
    }

    @Test func aValueThatIsNotAnObject_hasNoMembers() {
        let bytes = Array("[1,2]".utf8)
        let isObject = bytes.withUnsafeBufferPointer { buffer in
            JSONObjectReader.forEachMember(buffer, in: 0..<buffer.count) { _, _ in }
        }
        #expect(!isObject)
    }

    /// Values crossed eight bytes at a time end exactly where a byte-by-byte scan says, whatever
    /// their strings hold (quotes, backslashes and brackets escaped or not, UTF-8) and wherever
    /// the interesting bytes fall in a word.
    @Test func endOfValue_agreesWithTheLengthOfRandomValues() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let pieces = ["a", "bcdefgh", "\\\"", "\\\\", "{", "}", "[", "]", ",", ":", "é", "⛽", "\\u005d", " ", "\\n"]
        func string() -> String { "\"" + (0..<next(12)).map { _ in pieces[next(pieces.count)] }.joined() + "\"" }
        func value(_ depth: Int) -> String {
            switch depth > 3 ? next(3) : next(5) {
            case 0: return string()
            case 1: return ["0", "-12.5e3", "true", "null", "123456789012"][next(5)]
            case 2: return "false"
            case 3: return "[" + (0..<next(4)).map { _ in value(depth + 1) }.joined(separator: ",") + "]"
            default: return "{" + (0..<next(4)).map { _ in string() + ":" + value(depth + 1) }.joined(separator: ",") + "}"
            }
        }
        for _ in 0..<3000 {
            let text = value(0)
            let spaces = next(9)
            let document = Array(("[" + String(repeating: " ", count: spaces) + text + ",1]").utf8)
            let start = 1 + spaces
            #expect(StrictJSON.check(document) == nil, "\(text)")
            document.withUnsafeBufferPointer { bytes in
                #expect(JSONObjectReader.endOfValue(bytes, start, bytes.count) == start + text.utf8.count, "\(text)")
            }
        }
    }
}
