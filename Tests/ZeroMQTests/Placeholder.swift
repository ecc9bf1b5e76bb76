import Testing
@Test func placeholder_ZeroMQTests() { #expect(true) }
