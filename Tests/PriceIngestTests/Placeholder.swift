import Testing
@Test func placeholder_PriceIngestTests() { #expect(true) }
