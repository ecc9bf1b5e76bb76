import Foundation
import Messages
import Testing

/// The index the strict check lists gives a reader exactly the members walking the bytes gives.
struct MemberIndexTests {
    /// A member as a reader meets it: key text and value text.
    private struct Seen: Equatable {
        let key: String
        let value: String
    }

    /// Seeded pseudo-random JSON: objects and arrays nested, whitespace, escapes, every kind of value.
    private struct Documents {
        var state: UInt64

        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 33
        }

        mutating func space() -> String { ["", " ", "\n  ", "\t"][Int(next() % 4)] }

        mutating func value(depth: Int) -> String {
            switch next() % (depth > 6 ? 4 : 7) {
            case 0: return "\"s\(next() % 100)\""
            case 1: return "\(Int(next() % 2000) - 1000).\(next() % 100)"
            case 2: return ["true", "false", "null"][Int(next() % 3)]
            case 3: return #""q\"u\\o\u00e9""#
            case 4, 5: return object(depth: depth + 1)
            default:
                let elements = (0..<Int(next() % 4)).map { _ in space() + value(depth: depth + 1) + space() }
                return "[" + elements.joined(separator: ",") + "]"
            }
        }

        mutating func object(depth: Int) -> String {
            let members = (0..<Int(next() % 5)).map { index in
                space() + "\"k\(index)\(next() % 3 == 0 ? "\\u0041" : "")\"" + space() + ":" + space()
                    + value(depth: depth) + space()
            }
            return "{" + members.joined(separator: ",") + "}"
        }
    }

    /// Every object in the document, with its members found by walking and by the index.
    private static func compare(_ text: String) -> (objects: Int, mismatches: [String]) {
        let bytes = Array(text.utf8)
        var members: [StrictJSON.Member] = []
        var listedAll = false
        let failure = bytes.withUnsafeBufferPointer {
            StrictJSON.check($0, members: &members, listedAll: &listedAll)
        }
        guard failure == nil, listedAll else { return (0, ["not indexed: \(failure.map(\.description) ?? "partial")"]) }
        var objects = 0, mismatches: [String] = []
        bytes.withUnsafeBufferPointer { buffer in
            members.withUnsafeBufferPointer { listed in
                let index = MemberIndex(listed)
                func text(_ range: Range<Int>) -> String { String(decoding: buffer[range], as: UTF8.self) }
                func visit(_ range: Range<Int>) {
                    switch buffer[range.lowerBound] {
                    case UInt8(ascii: "{"):
                        objects += 1
                        var walked: [Seen] = [], indexed: [Seen] = [], values: [Range<Int>] = []
                        JSONObjectReader.forEachMember(buffer, in: range) { key, value in
                            walked.append(Seen(key: key.text, value: text(value)))
                            values.append(value)
                        }
                        index.forEachMember(ofObjectAt: range) { member in
                            let key = JSONObjectReader.RawKey(bytes: buffer, range: member.key, hasEscape: member.keyHasEscape)
                            indexed.append(Seen(key: key.text, value: text(member.value)))
                        }
                        if walked != indexed { mismatches.append(text(range)) }
                        values.forEach(visit)
                    case UInt8(ascii: "["):
                        JSONObjectReader.forEachElement(buffer, in: range) { visit($0) }
                    default:
                        break
                    }
                }
                let start = buffer.firstIndex { $0 != 0x20 && $0 != 0x0A && $0 != 0x09 } ?? 0
                visit(start..<buffer.count)
            }
        }
        return (objects, mismatches)
    }

    @Test func everyObjectsMembers_areWhatWalkingItsBytesFinds() {
        var documents = Documents(state: 42)
        var objects = 0
        for _ in 0..<800 {
            let document = documents.space() + documents.object(depth: 0) + documents.space()
            let (found, mismatches) = Self.compare(document)
            #expect(mismatches.isEmpty, "\(document)")
            objects += found
        }
        #expect(objects > 1500)
    }

    @Test func aHandReaderGivenTheIndex_readsWhatItReadsWithout() throws {
        let text = #"{"results":[{"distanceMiles":0.91,"fuel":"B7","pricePence":134.9,"station":{"address":"St Albans Road","brand":"Asda","id":"asda/1","lat":51.48767,"lng":-0.11232,"name":"Asda London","postcode":"SE6 7PA","retailer":"asda"},"updated":"2026-11-29T11:00:00Z"}],"indexedStations":10000,"version":13}"#
        let bytes = Array(text.utf8)
        var members: [StrictJSON.Member] = []
        var listedAll = false
        _ = bytes.withUnsafeBufferPointer { StrictJSON.check($0, members: &members, listedAll: &listedAll) }
        #expect(listedAll)
        let (walked, indexed) = try bytes.withUnsafeBufferPointer { buffer in
            try members.withUnsafeBufferPointer { listed in
                (try LookupReply(json: JSONSlice(bytes: buffer, range: 0..<buffer.count)),
                 try LookupReply(json: JSONSlice(bytes: buffer, range: 0..<buffer.count, index: MemberIndex(listed))))
            }
        }
        #expect(indexed.results.first?.station == walked.results.first?.station)
        #expect(indexed.results.first?.station.name == "Asda London")
        #expect(indexed.indexedStations == 10000)
    }

    @Test func anEmptySlice_isNotAnObject_withTheIndexOrWithout() {
        let bytes = Array(#"{"a":1}"#.utf8)
        var members: [StrictJSON.Member] = []
        var listedAll = false
        _ = bytes.withUnsafeBufferPointer { StrictJSON.check($0, members: &members, listedAll: &listedAll) }
        let refused = bytes.withUnsafeBufferPointer { buffer in
            members.withUnsafeBufferPointer { listed in
                [MemberIndex(listed), nil].map { index in
                    (try? JSONSlice(bytes: buffer, range: buffer.count..<buffer.count, index: index)
                        .forEachMember { _, _ in }) == nil
                }
            }
        }
        #expect(refused == [true, true])
    }

    @Test func aDocumentDeeperThanTheIndexGoes_isNotIndexed() {
        let deep = String(repeating: #"{"a":"#, count: StrictJSON.deepestListed + 1) + "1"
            + String(repeating: "}", count: StrictJSON.deepestListed + 1)
        let shallow = String(repeating: #"{"a":"#, count: StrictJSON.deepestListed) + "1"
            + String(repeating: "}", count: StrictJSON.deepestListed)
        for (text, indexed) in [(deep, false), (shallow, true), ("[1,2]", false), (#"{"a":[{"b":1}]}"#, true)] {
            var members: [StrictJSON.Member] = []
            var listedAll = false
            let failure = Array(text.utf8).withUnsafeBufferPointer {
                StrictJSON.check($0, members: &members, listedAll: &listedAll)
            }
            #expect(failure == nil)
            #expect(listedAll == indexed, "\(text.prefix(40))")
        }
    }
}
