import Messages
import Testing

struct FuelCodeTests {
    @Test func code_inAnyASCIICase_parses() {
        for fuel in FuelCode.allCases {
            #expect(FuelCode(code: fuel.rawValue) == fuel)
            #expect(FuelCode(code: fuel.rawValue.lowercased()) == fuel)
        }
        #expect(FuelCode(code: "Sdv") == .sdv)
        #expect(FuelCode(code: "e10") == .e10)
    }

    @Test func code_thatIsNotExactlyAFuel_isRefused() {
        for text in ["", "B", "B77", "E1", "E 10", "E10 ", " b7", "diesel", "B7\u{0}", "ＢＷ", "\u{17F}dv", "é5"] {
            #expect(FuelCode(code: text) == nil, "\(text.debugDescription) parsed")
        }
    }
}
