import Foundation
import Messages
import Testing

/// A registration's `heartbeatMs` is any JSON number: out of an `Int`'s range it is held at a
/// bound for the router to clamp, not refused as "not valid JSON".
struct PluginRegisterDecodingTests {
    private func heartbeat(_ text: String) throws -> Int? {
        let json = #"{"v":1,"type":"plugin.register","service":"s","instance":"i","intents":[]"#
            + (text.isEmpty ? "" : #","heartbeatMs":"# + text) + "}"
        return try JSONDecoder().decode(PluginRegister.self, from: Data(json.utf8)).heartbeatMs
    }

    @Test func heartbeatMs_ofAnySize_decodes() throws {
        #expect(try heartbeat("1500") == 1500)
        #expect(try heartbeat("-5") == -5)
        #expect(try heartbeat("1.5e300") == 1_000_000_000_000)
        #expect(try heartbeat("-1.5e300") == -1_000_000_000_000)
        #expect(try heartbeat("") == nil)
    }

    @Test func aRegistration_withoutItsVersion_isStillRefused() {
        let json = #"{"type":"plugin.register","service":"s","instance":"i","intents":[]}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(PluginRegister.self, from: Data(json.utf8)) }
    }
}
