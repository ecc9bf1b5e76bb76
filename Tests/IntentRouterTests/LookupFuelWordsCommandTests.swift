@testable import FuelboardCLI
import IntentRouter
import Messages
import Testing

/// `fuelboard lookup --fuel` takes the words people say as well as the codes (`FuelCode(word:)`),
/// and each word names the fuel the assistant hears in it, so the two never disagree.
struct LookupFuelWordsCommandTests {
    @Test func everyFuelWordTheCLITakes_isTheFuelTheRouterHearsInIt() throws {
        let recognizer = try IntentRecognizer()
        for (code, words) in FuelCode.words {
            for word in words {
                #expect(FuelCode(word: word) == code, "\(word)")
                let utterance = "Ask FuelBoard for the cheapest \(word) near me"
                guard case .cheapestFuel(.value(let heard), nil) = recognizer.recognize(utterance) else {
                    Issue.record("the router does not hear a fuel in: \(utterance)")
                    continue
                }
                #expect(heard == code, "\(word)")
            }
        }
    }

    @Test func fuel_readsCodesAndCommonWordsInAnyCase() {
        let expected: [String: FuelCode] = [
            "E10": .e10, "e10": .e10, "unleaded": .e10, "Petrol": .e10,
            "E5": .e5, "premium": .e5, "super unleaded": .e5, "Super  Unleaded": .e5, "super-unleaded": .e5,
            "B7": .b7, "b7": .b7, "diesel": .b7, "DIESEL": .b7,
            "SDV": .sdv, "super diesel": .sdv, "Premium Diesel": .sdv, "e ten": .e10, "B seven": .b7,
        ]
        for (text, code) in expected {
            #expect(FuelCode(word: text) == code, "\(text)")
        }
    }

    @Test(arguments: ["", "hydrogen", "diesel please", "E 10x", "LPG"])
    func fuel_whenNotAFuelFuelBoardPrices_isNil(text: String) {
        #expect(FuelCode(word: text) == nil)
    }
}
