import Testing
@Test func placeholder_FuelLookupTests() { #expect(true) }
