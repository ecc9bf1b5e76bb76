@testable import IntentRouter
import Messages
import Testing

/// A plug-in's dialog reaches users without bytes that are not words (a walkthrough's service sent
/// a NUL and a right-to-left override; `fuelboard ask` printed them raw).
struct SpeakableTextTests {
    @Test func controlsAndDirectionOverrides_areDropped_lineBreaksAreSpaces() {
        #expect(SpeakableText.clean("Open\u{0} until\u{1b}[31m 8\u{202E}pm\u{2066}.\nSee you") == "Open until[31m 8pm. See you")
    }

    @Test func words_inAnyScript_stayAsTheyAre() {
        #expect(SpeakableText.clean("Köln: geöffnet bis 20 Uhr — 東京 ✅") == "Köln: geöffnet bis 20 Uhr — 東京 ✅")
    }

    @Test func longText_isCut() {
        #expect(SpeakableText.clean(String(repeating: "a", count: 5000)).count == 2000)
    }

    @Test func invisibleCharacters_areDropped_unicodeLineBreaksAreSpaces() {
        #expect(SpeakableText.clean("a\u{2028}b\u{200B}c\u{FEFF}d\u{E0041}e\u{AD}f") == "a bcdef")
    }

    @Test func aCardsTextFields_areCleanedToo() {
        let card = Snippet(title: "T\u{1b}[31mred\u{202E}evil", subtitle: "S\u{0}x").speakable
        #expect(card.title == "T[31mredevil" && card.subtitle == "Sx")
    }
}
