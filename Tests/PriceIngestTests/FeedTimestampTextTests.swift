import FeedParsing
import Foundation
import Testing

/// `FeedTimestamp.text`, used to name feed times in replies: the CMA form in UK time.
struct FeedTimestampTextTests {
    @Test(arguments: ["30/11/2025 11:00:00", "01/07/2025 09:05:03", "29/02/2028 23:59:59", "26/10/2025 00:30:00"])
    func text_ofAParsedTime_isTheSameText(text: String) throws {
        let date = try #require(FeedTimestamp.parse(text))
        #expect(FeedTimestamp.text(date) == text)
    }

    @Test func text_inSummer_isBritishSummerTime() {
        #expect(FeedTimestamp.text(Date(timeIntervalSince1970: 1_751_360_400)) == "01/07/2025 10:00:00")
    }
}
