@testable import FuelboardCLI
import IntentRouter
import Testing

/// Every utterance `fuelboard loadtest --target router` sends is one the router understands as
/// CheapestFuel with the fuel asked for, so a load test measures answers, not "I didn't get that".
struct LoadTestPhrasingsTests {
    @Test func everyGeneratedAsk_isCheapestFuelWithItsFuel() throws {
        let recognizer = try IntentRecognizer()
        let expected = ["unleaded": "E10", "diesel": "B7", "premium": "E5", "super diesel": "SDV", "petrol": "E10",
                        "E10": "E10", "B7": "B7"]
        for phrasing in LoadPlan.askPhrasings {
            for word in LoadPlan.fuelWords {
                let utterance = phrasing.replacingOccurrences(of: "{fuel}", with: word)
                let call = recognizer.recognize(utterance)
                guard case .cheapestFuel(.value(let fuel), nil) = call else {
                    Issue.record("not CheapestFuel with a fuel: \(utterance) -> \(String(describing: call))")
                    continue
                }
                #expect(fuel.rawValue == expected[word], "\(utterance)")
            }
        }
    }
}
