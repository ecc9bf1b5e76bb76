import Foundation
@testable import Messages
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

/// The members the strict check lists are those a reader finds in the envelope and its objects.
struct StrictJSONMembersTests {
    private static func scanned(_ text: String) -> (StrictJSON.Failure?, [StrictJSON.Member]) {
        var members = [StrictJSON.Member(depth: 9, key: 0..<0, keyHasEscape: false, value: 0..<0, object: 0)]
        var listedAll = false
        let failure = Array(text.utf8).withUnsafeBufferPointer {
            StrictJSON.check($0, members: &members, listedAll: &listedAll)
        }
        return (failure, members)
    }

    /// What `JSONObjectReader` finds: members of the top object (depth 1) and of objects in it (depth 2).
    private static func read(_ text: String) -> [StrictJSON.Member] {
        Array(text.utf8).withUnsafeBufferPointer { bytes in
            var found: [StrictJSON.Member] = []
            let top = bytes.firstIndex { $0 == UInt8(ascii: "{") } ?? 0
            JSONObjectReader.forEachMember(bytes, in: 0..<bytes.count) { key, value in
                var inner: [StrictJSON.Member] = []
                JSONObjectReader.forEachMember(bytes, in: value) { innerKey, innerValue in
                    inner.append(.init(depth: 2, key: innerKey.range, keyHasEscape: innerKey.hasEscape, value: innerValue,
                                       object: value.lowerBound))
                }
                found += inner
                found.append(.init(depth: 1, key: key.range, keyHasEscape: key.hasEscape, value: value, object: top))
            }
            return found
        }
    }

    @Test(arguments: [
        #"{"v":1,"id":"7","type":"lookup.cheapest","body":{"fuel":"B7","lat":52.5,"lng":-1.2,"limit":1}}"#,
        #" { "a" : [ {"x":1}, 2 ] , "b":{ "c":{"d":{}} , "e" : "f\"g" , "h\u0031":[] } , "i":{} , "j":null } "#,
        #"{"body":{}}"#, "{}", #"{"k":"v"}"#,
    ])
    func members_areWhatAReaderFinds(text: String) {
        let (failure, members) = Self.scanned(text)
        #expect(failure == nil)
        // Deeper ones are listed too (MemberIndexTests compares every object's).
        #expect(members.filter { $0.depth <= 2 } == Self.read(text))
    }

    /// In a batch frame, depth 4 is each inner request's envelope, 5 its body and so on: moved up
    /// three depths and counted from the request's first byte, they are exactly what a check of
    /// that request alone finds (what a server hands each request of a batch instead of a check).
    @Test func aBatchFramesInnerMembers_areWhatACheckOfEachRequestFinds() throws {
        let requests = [
            #"{"v":1,"id":"a","type":"dialog.render","body":{"outcome":"found","station":{"id":"x","lat":1},"now":null}}"#,
            #" { "type" : "location.put" , "body" : { "user" : "u\"1" , "lat" : 51.5 } , "id" : 7 } "#,
            #"{"id":"c","body":{},"type":"sys.ping","x":[{"deep":{"deeper":1}}]}"#,
            #"[{"a":1}]"#, #"{}"#, #""text""#,
        ]
        let head = #"{"v":1,"id":"b","type":"sys.batch","body":{"requests":["#
        let frame = head + requests.joined(separator: " , ") + "]}}"
        let (failure, members) = Self.scanned(frame)
        #expect(failure == nil)
        var offset = head.utf8.count
        for request in requests {
            let range = offset..<(offset + request.utf8.count)
            let inner = members.filter { $0.depth >= 4 && range.contains($0.value.lowerBound) }.map { member in
                StrictJSON.Member(depth: member.depth - 3, key: (member.key.lowerBound - offset)..<(member.key.upperBound - offset),
                                  keyHasEscape: member.keyHasEscape,
                                  value: (member.value.lowerBound - offset)..<(member.value.upperBound - offset),
                                  object: member.object - offset)
            }
            let alone = Self.scanned(request)
            #expect(alone.0 == nil)
            // An element that is not an object is refused as a request whatever its members.
            if request.hasPrefix("{") || request.hasPrefix(" {") { #expect(inner == alone.1, "\(request)") }
            offset = range.upperBound + 3
        }
    }

    @Test func aDocumentThatIsNotAnObject_hasNoMembers() {
        #expect(Self.scanned("[1,{\"a\":2}]").1.isEmpty)
        #expect(Self.scanned("\"text\"").1.isEmpty)
    }

    @Test func anInvalidDocument_isRefusedAsByTheCheck() {
        for text in [#"{"a":1,}"#, #"{"a":{"b":}}"#, #"{"a" 1}"#] {
            #expect(Self.scanned(text).0 != nil)
            #expect(StrictJSON.check(Data(text.utf8)) != nil)
        }
    }
}

/// Whatever sits at whichever place of a string, short or long, is found.
struct StrictJSONStringPlacesTests {
    private static func accepts(_ inner: [UInt8]) -> Bool {
        StrictJSON.check([UInt8(ascii: "\"")] + inner + [UInt8(ascii: "\"")]) == nil
    }

    @Test func everyPlaceInAString_isChecked() {
        let plain = Array("abcdefghijklmnopqrstuvwxyz0123456789 ABCDEFGHIJKLMNOP".utf8)
        for length in 0...40 {
            let text = Array(plain.prefix(length))
            #expect(Self.accepts(text), "plain text of \(length) bytes")
            for place in 0...length {
                func with(_ bytes: [UInt8]) -> [UInt8] { Array(text[..<place]) + bytes + Array(text[place...]) }
                #expect(!Self.accepts(with([0x01])), "control byte at \(place) of \(length)")
                #expect(!Self.accepts(with([0x1F])), "0x1F at \(place) of \(length)")
                #expect(!Self.accepts(with([UInt8(ascii: "\"")])), "bare quote at \(place) of \(length)")
                #expect(!Self.accepts(with([0xFF])), "0xFF at \(place) of \(length)")
                #expect(!Self.accepts(with([0xC3])), "truncated UTF-8 at \(place) of \(length)")
                #expect(!Self.accepts(with([UInt8(ascii: "\\"), UInt8(ascii: "x")])), "bad escape at \(place)")
                #expect(Self.accepts(with(Array("é⛽".utf8))), "UTF-8 at \(place) of \(length)")
                #expect(Self.accepts(with([UInt8(ascii: "\\"), UInt8(ascii: "\"")])), "escaped quote at \(place)")
                #expect(Self.accepts(with([0x7E, 0x20, 0x21, 0x23, 0x5B, 0x5D])), "edge bytes at \(place)")
            }
        }
    }

    /// The check reads plain string text eight bytes at a time: every byte value, at every place
    /// of a word and across words, must be judged exactly as the byte-by-byte rules judge it.
    @Test func everyByteValue_anywhereInAString_isJudgedByItself() {
        let text = [UInt8](repeating: UInt8(ascii: "a"), count: 24)
        for value in 0...255 {
            let alone = value >= 0x20 && value < 0x80 && value != 0x22 && value != 0x5C
            for place in 0..<text.count {
                var inner = text
                inner[place] = UInt8(value)
                #expect(Self.accepts(inner) == alone, "byte \(value) at \(place)")
            }
        }
    }
}
