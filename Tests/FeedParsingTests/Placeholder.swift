import Testing
@Test func placeholder_FeedParsingTests() { #expect(true) }
