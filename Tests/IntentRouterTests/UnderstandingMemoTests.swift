import Foundation
@testable import IntentRouter
import Testing

/// Remembered understandings are what understanding afresh gives, and the memory stays bounded.
struct UnderstandingMemoTests {
    private static let recognizer = try! IntentRecognizer()

    @Test func aRepeatedText_isRememberedAsItWasUnderstood() {
        let memo = UnderstandingMemo(capacity: 8)
        let texts = ["Ask FuelBoard for the cheapest diesel near me", "ask fuelboard for the cheapest petrol",
                     "Ask FuelBoard to forget my location", "this means nothing", ""]
        for text in texts + texts {
            let utterance = Self.recognizer.normalizer.normalize(text)
            let fresh = Understanding(utterance: utterance, call: Self.recognizer.recognize(utterance))
            #expect(memo.understanding(of: text, by: Self.recognizer) == fresh, "\(text)")
        }
        #expect(memo.misses == UInt64(texts.count))
        #expect(memo.hits == UInt64(texts.count))
    }

    @Test func aFullMemo_startsAgain_andStillAnswersCorrectly() {
        let memo = UnderstandingMemo(capacity: 3)
        for round in 0..<3 {
            for number in 0..<10 {
                let text = "Ask FuelBoard to set my search radius to \(number + 1) miles"
                let understood = memo.understanding(of: text, by: Self.recognizer)
                #expect(understood.call == Self.recognizer.recognize(text), "round \(round) \(text)")
            }
        }
        #expect(memo.misses == 30)
    }

    @Test func aLongText_isUnderstoodButNotRemembered() {
        let memo = UnderstandingMemo(capacity: 8)
        let text = "Ask FuelBoard for the cheapest diesel near me " + String(repeating: "please ", count: 60)
        for _ in 0..<3 {
            #expect(memo.understanding(of: text, by: Self.recognizer).call == Self.recognizer.recognize(text))
        }
        #expect(memo.hits == 0)
        #expect(memo.misses == 3)
    }
}
