import Foundation
@testable import FuelboardCLI
import IntentRouter
import Messages
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

    /// Against a router given another app name, every ask was "not understood" (QA): the plan says
    /// the name the router was given, and that router understands every ask.
    @Test func aRouterWithAnotherAppName_understandsEveryGeneratedAsk() throws {
        let recognizer = try IntentRecognizer(appName: "Petrolhead")
        let points = [Coordinate(lat: 53.8, lng: -1.55)]
        let plan = try LoadPlan.make(target: .router, type: .assistantAsk, points: points, count: 200, seed: 3,
                                     radius: 5, fuel: "B7", appName: "Petrolhead")
        for body in plan.bodies {
            let ask = try JSONDecoder().decode(AssistantAskRequest.self, from: Data(body))
            #expect(!ask.utterance.contains("FuelBoard"), "\(ask.utterance)")
            guard case .cheapestFuel(.value, nil) = recognizer.recognize(ask.utterance) else {
                Issue.record("not understood by a Petrolhead router: \(ask.utterance)")
                continue
            }
        }
    }
}
