@testable import DialogRenderer
import Foundation
import Messages
import SampleFeeds
import Testing

/// The pieces the wire render is built from, each against what it stands in for: numbers as
/// `JSONWriter` and `MapsLink.coordinate` write them, numbers and times as `JSONSlice` reads
/// them, compiled templates as `Template.render`, JSON strings as `JSONWriter.string`.
struct WirePiecesTests {
    private static func text(_ write: (inout TextScratch) -> Void) -> String {
        var scratch = TextScratch(capacity: 16)
        write(&scratch)
        return scratch.string(0..<scratch.count)
    }

    /// Decimal numbers of every size, with up to nine decimals, and a few without a short form.
    private static let numbers: [Double] = {
        var generator = SplitMix64(seed: 5)
        var numbers: [Double] = [0, -0.0, 1, -1, 0.1, 1e-4, -1e-4, 0.00009999, 0x1p53, 0x1p53 + 2, -0x1p53, 1e9,
                                 999_999_999.999999, 1e9 + 0.5, 1e-5, -1e-7, 1e15, 1e16, 123_456_789.123456,
                                 53.768681, -1.089549, 139.9, 151.89999999999998, 0.1 + 0.2, .pi, -.pi,
                                 Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude]
        for _ in 0..<30_000 {
            let whole = Double(generator.next(in: 0...2_000_000_000)) / Double(generator.next(in: 1...1000))
            let decimals = generator.next(in: 0...9)
            var scale = 1.0
            for _ in 0..<decimals { scale *= 10 }
            let rounded = (whole * scale).rounded() / scale
            numbers.append(generator.next(in: 0...1) == 0 ? rounded : -rounded)
            let exponent = UInt64(generator.next(in: 900...1100)) << 52
            numbers.append(Double(bitPattern: generator.next() & ~(0x7FF << 52) | exponent))
        }
        return numbers
    }()

    @Test func jsonNumber_isJSONWritersText() {
        for value in Self.numbers {
            var writer = JSONWriter()
            writer.number(value)
            let expected = String(decoding: writer.bytes, as: UTF8.self)
            #expect(Self.text { DecimalText.appendJSONNumber(value, to: &$0) } == expected, "\(value)")
        }
    }

    @Test func coordinate_isMapsLinksText() {
        for value in Self.numbers + [180, -180, 90, -90, 0.5, -0.00001, 51.47789] {
            #expect(Self.text { MapsLink.appendCoordinate(value, to: &$0) } == MapsLink.coordinate(value), "\(value)")
        }
        let url = Self.text { _ = MapsLink.appendDirections(lat: 53.768681, lng: -1.089549, to: &$0) }
        #expect(url == MapsLink.directions(lat: 53.768681, lng: -1.089549))
    }

    @Test func digits_areTheNumbersText() {
        for value in [0, 5, 9, 10, 42, 99, 100, 999, 1000, 123_456, Int.max, -1, -42, Int.min] {
            for minimumCount in 1...4 {
                let plain = String(value)
                let padded = value >= 0 && plain.count < minimumCount
                    ? String(repeating: "0", count: minimumCount - plain.count) + plain : plain
                #expect(Self.text { $0.append(digitsOf: value, minimumCount: minimumCount) } == padded)
            }
        }
    }

    @Test func readNumbers_areJSONSlicesValues() {
        let texts = ["0", "-0", "139.9", "151.89999999999998", "2.3", "-1.089549", "53.768681", "1e2", "1.5E-3",
                     "123456789012345", "1234567890123456", "0.000000000000000000001", "0.0000000000000000000001",
                     "99999999999999.9", "1e400", "0e1", "-0.0", "12500", "\"1\"", "true", "null"]
        for text in texts {
            let bytes = Array(text.utf8)
            bytes.withUnsafeBufferPointer { buffer in
                let expected = try? JSONSlice(bytes: buffer, range: 0..<buffer.count).double()
                let read = WireValues.double(buffer, 0..<buffer.count)
                #expect(read?.bitPattern == expected?.bitPattern, "\(text)")
            }
        }
    }

    @Test func readTimes_areJSONSlicesValues() {
        let texts = ["2025-10-09T05:30:00Z", "2024-02-29T23:59:59Z", "2025-02-29T00:00:00Z", "1583-01-01T00:00:00Z",
                     "1582-12-31T23:59:59Z", "9999-12-31T23:59:59Z", "2025-10-09T24:00:00Z", "2025-10-09T05:60:00Z",
                     "2025-13-01T00:00:00Z", "2025-10-09T05:30:00+01:00", "2025-10-09T05:30:00.5Z",
                     "2025-10-09 05:30:00Z", "2025-1a-09T05:30:00Z", "nonsense"]
        for text in texts {
            let bytes = Array("\"\(text)\"".utf8)
            bytes.withUnsafeBufferPointer { buffer in
                let expected = try? JSONSlice(bytes: buffer, range: 0..<buffer.count).date()
                #expect(WireValues.date(buffer, 0..<buffer.count) == expected, "\(text)")
            }
        }
    }

    @Test func plainText_isAStringsTextWithoutEscapes() {
        let values: [(json: String, text: String?)] = [
            ("\"\"", ""), (#""a""#, "a"), (#""Tesco Selby""#, "Tesco Selby"), (#""Tŷ Croes 🚗""#, "Tŷ Croes 🚗"),
            (#""a\"b""#, nil), (#""\\""#, nil), (#""\u0041""#, nil),
            ("\"" + String(repeating: "x", count: 40) + "\\n\"", nil),
            ("5", nil), ("null", nil), ("true", nil), (#"{"a":"b"}"#, nil), (#"["a"]"#, nil),
        ]
        for (json, text) in values {
            let bytes = Array(("  " + json + ",").utf8)
            bytes.withUnsafeBufferPointer { buffer in
                let found = WireValues.plainText(buffer, 2..<(buffer.count - 1))
                let foundText = found.map { String(decoding: UnsafeBufferPointer(rebasing: buffer[$0]), as: UTF8.self) }
                #expect(foundText == text, "\(json)")
            }
        }
    }

    @Test func equals_comparesWholeNames() {
        let names: [StaticString] = ["a", "id", "km", "now", "fuel", "found", "miles", "directions",
                                     "aVeryLongNameIndeed"]
        for name in names {
            let text = String(decoding: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount),
                              as: UTF8.self)
            for candidate in [text, text + "x", String(text.dropLast()) + "X", "X" + text.dropFirst(), ""] {
                let bytes = Array(("\"" + candidate + "\"").utf8)
                bytes.withUnsafeBufferPointer { buffer in
                    #expect(WireValues.equals(buffer, 1..<(buffer.count - 1), name) == (candidate == text))
                }
            }
        }
    }

    @Test func caseIndexes_countTheCasesInOrder() {
        #expect(DialogOutcome.allCases.map(\.index) == Array(DialogOutcome.allCases.indices))
        #expect(FuelCode.allCases.map(\.index) == Array(FuelCode.allCases.indices))
        #expect(DistanceUnit.allCases.map(\.index) == Array(DistanceUnit.allCases.indices))
        // A slot is a lane of `SlotValues` and a bit of `factSlotMasks`.
        #expect(Slot.allCases.count <= 32)
        #expect(Set(Slot.allCases.map(\.name)).count == Slot.allCases.count)
        #expect(Fact.allCases.allSatisfy { Slot($0).name == $0.rawValue })
    }

    @Test(arguments: ["{station} at {price}", "{{literal}} {name} }}", "plain", "", "{time}{time}{year}",
                      "say \"{word}\"\n\tback\\slash", "{unknownName} and {fuel}", "{{{fuel}}}"])
    func compiledTemplates_renderAsTemplates(source: String) throws {
        let template = try Template(parsing: source)
        var values: TemplateValues = [:]
        var slots = SlotValues()
        var scratch = TextScratch(capacity: 8)
        for (index, slot) in Slot.allCases.enumerated() where index % 3 != 2 {  // some slots stay without a value
            let value = "v\(index)·"
            values[slot.name] = value
            slots[slot] = scratch.phrase { $0.append(text: value) }
        }
        var compiled: [CompiledTemplate] = []
        let plain = TemplatePool([template], jsonEscaped: false, compiled: &compiled)
        let rendered = plain.render(compiled[0], into: &scratch, slots)
        #expect(scratch.string(rendered) == template.render(values))
        let json = TemplatePool([template], jsonEscaped: true, compiled: &compiled)
        let escaped = json.render(compiled[0], into: &scratch, slots)
        #expect(Array(scratch.bytes(escaped)) == TemplatePool.jsonStringText(template.render(values)))
        let constant = plain.render(compiled[0], into: &scratch)
        #expect(scratch.string(constant) == template.render([:]))
    }
}
