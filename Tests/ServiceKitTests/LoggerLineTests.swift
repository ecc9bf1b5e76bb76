import Foundation
@testable import ServiceKit
import Testing

/// A log line stays one line whatever text a client sent: no forged lines, no terminal escapes,
/// no megabytes.
struct LoggerLineTests {
    let logger = Logger(label: "test")

    @Test(arguments: ["x\ny", "x\ry", "x\u{1b}[31my", "x\u{7f}y", "x\u{2028}y", "x\u{85}y", "x\u{0}y"])
    func controlCharacters_areWrittenAsEscapes(text: String) {
        for line in [logger.line(.info, text, metadata: [:]), logger.line(.info, "m", metadata: ["type": text])] {
            #expect(line.filter { $0 == "\n" }.count == 1 && line.hasSuffix("\n"), "\(line)")
            #expect(!line.dropLast().unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value)
                || $0.value == 0x2028 }, "\(line.debugDescription)")
        }
    }

    @Test func escapes_sayWhatTheCharacterWas() {
        #expect(Logger.printable("a\r\nb\u{1b}", limit: 100) == #"a\r\nb\u{1b}"#)
    }

    @Test func aLongValue_isCut_andSaysHowMuchWasLeftOut() {
        let line = logger.line(.warning, "refused", metadata: ["service": String(repeating: "x", count: 200_000)])
        #expect(line.count < 400, "\(line.count) characters")
        #expect(line.contains("…(199800 more)"), "\(line.suffix(40))")
    }

    @Test func aLongMessage_isCut() {
        let line = logger.line(.info, String(repeating: "y", count: 10_000), metadata: [:])
        #expect(line.count < 700)
    }

    @Test func ordinaryText_isWrittenAsItIs() {
        let line = logger.line(.info, "ask", metadata: ["intent": "CheapestFuel", "why": "the lookup timed out"],
                               at: Date(timeIntervalSince1970: 0))
        #expect(line == "1970-01-01T00:00:00Z info test: ask intent=CheapestFuel why=\"the lookup timed out\"\n")
    }
}
