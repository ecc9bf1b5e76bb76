import Foundation
import IntentRouter
import Testing

/// The hassil-style sentence file: each sentence must give its intent and exactly its slots,
/// and each failure must match nothing.
struct SentenceFileTests {
    struct SentenceFile: Decodable {
        struct Group: Decodable {
            struct Expected: Decodable {
                let name: String
                let slots: [String: String]
            }
            let sentences: [String]
            let intent: Expected
        }
        let appName: String
        let tests: [Group]
        let failures: [String]
    }

    static let fileURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Sentences/en-GB.json")

    static func load() throws -> SentenceFile {
        try JSONDecoder().decode(SentenceFile.self, from: Data(contentsOf: fileURL))
    }

    @Test func sentenceFile_hasEnoughSentencesAndFailures() throws {
        let file = try Self.load()
        #expect(file.tests.reduce(0) { $0 + $1.sentences.count } >= 60)
        #expect(file.failures.count >= 10)
    }

    @Test func everySentence_matchesItsIntentAndSlots() throws {
        let file = try Self.load()
        let recognizer = try IntentRecognizer(appName: file.appName)
        for group in file.tests {
            for sentence in group.sentences {
                let call = recognizer.recognize(sentence)
                #expect(call?.intent.rawValue == group.intent.name, "\(sentence)")
                #expect(call?.slotSummary == group.intent.slots, "\(sentence)")
            }
        }
    }

    @Test func everyFailure_matchesNothing() throws {
        let file = try Self.load()
        let recognizer = try IntentRecognizer(appName: file.appName)
        for sentence in file.failures {
            let call = recognizer.recognize(sentence)
            #expect(call == nil, "\(sentence) matched \(String(describing: call))")
        }
    }

    @Test func everyIntent_isCoveredByTheFile() throws {
        let file = try Self.load()
        let covered = Set(file.tests.map(\.intent.name))
        #expect(covered == Set(Intent.allCases.map(\.rawValue)))
    }
}
