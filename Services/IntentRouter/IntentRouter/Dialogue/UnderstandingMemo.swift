import Messages

/// What the built-in grammar makes of an utterance's text: its words and the intent call it
/// asks for (nil when none). Both depend on the text alone.
public struct Understanding: Sendable, Equatable {
    /// The words as the built-in grammar hears them (misheard fuel words corrected).
    public let utterance: NormalizedUtterance
    public let call: IntentCall?
    /// The words as said, for plug-ins: their phrases may hold words the correction would change
    /// ("Premier" is no misheard "premium" to a shop's plug-in).
    public let heard: NormalizedUtterance

    public init(utterance: NormalizedUtterance, call: IntentCall?, heard: NormalizedUtterance? = nil) {
        self.utterance = utterance
        self.call = call
        self.heard = heard ?? utterance
    }
}

/// Remembers the understanding of recent utterance texts. People ask the same few things ("the
/// cheapest diesel near me"), and normalising and matching are most of an ask's work in the
/// router, so a repeated text skips both. Bounded: when full it starts again, and only short
/// texts (what people say) are kept, so its memory stays small whatever is sent.
final class UnderstandingMemo {
    let capacity: Int
    /// Longer texts are understood afresh every time.
    static let maxTextBytes = 256
    private var known: [String: Understanding] = [:]
    private(set) var hits: UInt64 = 0
    private(set) var misses: UInt64 = 0

    init(capacity: Int = 4096) {
        self.capacity = max(1, capacity)
    }

    func understanding(of text: String, by recognizer: IntentRecognizer) -> Understanding {
        if let remembered = known[text] {
            hits += 1
            return remembered
        }
        misses += 1
        let heard = recognizer.normalizer.normalize(text)
        let utterance = recognizer.correctingFuelWords(heard)
        let understood = Understanding(utterance: utterance, call: recognizer.recognize(utterance), heard: heard)
        guard text.utf8.count <= Self.maxTextBytes else { return understood }
        if known.count >= capacity { known.removeAll(keepingCapacity: true) }
        known[text] = understood
        return understood
    }
}
