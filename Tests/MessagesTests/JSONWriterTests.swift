import Foundation
import Messages
import Testing

/// `JSONWriter` must write what `JSONCoding`'s encoder writes for the same values.
struct JSONWriterTests {
    private static func written(_ body: (inout JSONWriter) -> Void) -> String {
        var out = JSONWriter(capacity: 8)  // small, so appends must grow the buffer
        body(&out)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    private static func encoded(_ value: some Encodable) throws -> String {
        String(decoding: try JSONCoding.encode(value), as: UTF8.self)
    }

    @Test func numbers_areWrittenAsTheEncoderWritesThem() throws {
        var random = SystemRandomNumberGenerator()
        var values: [Double] = [0, -0.0, 1, -1, 0.1, 0.5, 12.34, 145.9, 52.123456, -1.000001, 0.0001, 0.00001,
                                1e-7, 123456789.123, 999999999.999999, 1e15, 1e16, 2.5e-8, 3.14159265358979,
                                Double.ulpOfOne, 1 / 3, 2 / 3, 100.0 / 3, 0x1p53, -0x1p53, 0x1p53 - 1, 0x1p53 + 2]
        for decimals in 0...8 {
            let scale = pow(10, Double(decimals))
            for _ in 0..<400 {
                let whole = Double(Int.random(in: -200_000...200_000, using: &random))
                values.append((whole + Double.random(in: 0..<1, using: &random)) * 1 + 0)
                values.append((Double(Int.random(in: -99_999_999...99_999_999, using: &random)) / scale))
            }
        }
        for value in values {
            #expect(Self.written { $0.number(value) } == (try Self.encoded([value])).dropFirst().dropLast(),
                    "value \(value)")
        }
    }

    @Test func nonFiniteNumbers_areWrittenAsNull() {
        #expect(Self.written { $0.number(.nan) } == "null")
        #expect(Self.written { $0.number(.infinity) } == "null")
    }

    @Test func integers_areWrittenInFull() {
        for value in [0, 7, -7, 10, 1_000_000, Int.max, Int.min] {
            #expect(Self.written { $0.integer(value) } == String(value))
        }
        #expect(Self.written { $0.integer(UInt64.max) } == String(UInt64.max))
    }

    @Test func dates_areWrittenAsTheEncoderWritesThem() throws {
        var random = SystemRandomNumberGenerator()
        var dates = [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 951_782_400.5),  // 2000-02-29
                     Date(timeIntervalSince1970: -1), Date(timeIntervalSince1970: 4_102_444_799)]
        for _ in 0..<500 {
            dates.append(Date(timeIntervalSince1970: Double(Int.random(in: -2_000_000_000...4_000_000_000, using: &random))))
        }
        // Before the Gregorian calendar (Foundation writes the Julian date), and after year 9999.
        for _ in 0..<300 {
            dates.append(Date(timeIntervalSince1970: Double(Int.random(in: -62_000_000_000...(-12_219_292_800),
                                                                       using: &random))))
            dates.append(Date(timeIntervalSince1970: Double(Int.random(in: 253_402_300_800...300_000_000_000,
                                                                       using: &random))))
        }
        for date in dates {
            #expect(Self.written { $0.date(date) } == (try Self.encoded([date])).dropFirst().dropLast(), "date \(date)")
        }
    }

    @Test func strings_areEscapedAsTheEncoderEscapesThem() throws {
        var texts = ["", "plain", "quote \" here", "back\\slash", "slash / kept", "tab\tnew\nline\r", "Café ⛽",
                     "\u{00}\u{01}\u{1F}\u{7F}", String(repeating: "long ", count: 300)]
        texts.append((0..<0x20).map { String(UnicodeScalar(UInt8($0))) }.joined())
        for text in texts {
            #expect(Self.written { $0.string(text) } == (try Self.encoded([text])).dropFirst().dropLast(),
                    "text \(text.debugDescription)")
        }
    }
}
