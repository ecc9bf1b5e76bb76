import Testing
@Test func placeholder_SampleFeedsTests() { #expect(true) }
