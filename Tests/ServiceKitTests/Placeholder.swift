import Testing
@Test func placeholder_ServiceKitTests() { #expect(true) }
