@testable import IntentRouter
import Messages
import Testing

/// A plug-in's dialog reaches users without bytes that are not words (a walkthrough's service sent
/// a NUL and a right-to-left override; `fuelboard ask` printed them raw).
struct SpeakableTextTests {
    @Test func controlsAndDirectionOverrides_areDropped_lineBreaksAreSpaces() {
        #expect(SpeakableText.clean("Open\u{0} until\u{1b}[31m 8\u{202E}pm\u{2066}.\nSee you") == "Open until 8pm. See you")
    }

    /// An escape sequence went byte by byte: its printable rest ("[31m") reached the user (QA).
    @Test(arguments: [
        ("\u{1b}[1;31mRed\u{1b}[0m now", "Red now"),          // colours (a control sequence)
        ("\u{9b}2JClear", "Clear"),                             // the same, introduced by C1 CSI
        ("\u{1b}]0;title\u{7}Hi", "Hi"),                         // a window title, ended by BEL
        ("\u{1b}]8;;http://x\u{1b}\\link\u{1b}]8;;\u{1b}\\ ok", "link ok"),  // a hyperlink, ended by ST
        ("a\u{1b}7b\u{1b}8c", "a7b8c"),                          // ESC 7 is no sequence of ours: only ESC goes
        ("a\u{1b}Mb", "ab"),                                    // a short one (reverse line feed)
        ("cut \u{1b}[31", "cut "), ("cut \u{1b}", "cut "), ("title \u{1b}]0;never ended", "title "),
        ("\u{1b}[é", "é"),                                      // not a sequence character: kept
    ])
    func escapeSequences_areDroppedWhole(text: String, clean: String) {
        #expect(SpeakableText.clean(text) == clean, "\(text.debugDescription)")
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
        #expect(card.title == "Tredevil" && card.subtitle == "Sx")
    }
}
