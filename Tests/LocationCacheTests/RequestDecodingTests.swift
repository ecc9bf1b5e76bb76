import Foundation
import LocationCache
import Messages
import Testing

struct RequestDecodingTests {
    private func decodeError<Body: Decodable & Sendable>(_ body: String, as type: Body.Type,
                                                         _ requestType: MessageType = .locationPut) -> ServiceError? {
        let payload = Data(#"{"v":1,"id":"t","type":"\#(requestType.rawValue)","body":\#(body)}"#.utf8)
        do {
            _ = try RequestDecoding.body(Body.self, from: payload, requestType: requestType)
            return nil
        } catch {
            return error
        }
    }

    @Test func body_whenValid_decodes() throws {
        let json = #"{"user":"u","lat":1.5,"lng":2,"at":"2025-10-09T12:00:00Z"}"#
        let payload = Data(#"{"v":1,"id":"t","type":"location.put","body":\#(json)}"#.utf8)
        let body = try RequestDecoding.body(LocationPutRequest.self, from: payload, requestType: .locationPut)
        #expect(body.user == "u" && body.lat == 1.5 && body.lng == 2 && body.at == TestClock.start)
    }

    @Test func body_whenNumberOverflows_isBadRequestWithoutTheValue() {
        let error = decodeError(#"{"user":"u","lat":51.48162731e999,"lng":0}"#, as: LocationPutRequest.self)
        #expect(error?.code == .badRequest)
        #expect(error?.message.contains("number too large") == true)
        #expect(error?.message.contains("4816273") == false)
    }

    @Test func body_whenLatIsAString_namesTheFieldButNotTheValue() {
        let error = decodeError(#"{"user":"u","lat":"51.4816273","lng":-0.1932751}"#, as: LocationPutRequest.self)
        #expect(error?.message == "bad body for location.put: \"lat\" must be a number of degrees between -90 and 90")
    }

    @Test func body_whenFieldMissing_namesIt() {
        let error = decodeError(#"{"lat":1,"lng":2}"#, as: LocationPutRequest.self)
        #expect(error?.message == "bad body for location.put: missing field \"user\"")
    }

    @Test func body_whenAtIsNotATime_saysWhatItMustBe() {
        let error = decodeError(#"{"user":"u","lat":1,"lng":2,"at":"yesterday"}"#, as: LocationPutRequest.self)
        #expect(error?.message.hasSuffix("\"at\" must be an ISO-8601 time with offset") == true)
    }

    @Test func body_whenUnitUnknown_namesTheAllowedUnits() {
        let error = decodeError(#"{"user":"u","unit":{"set":"furlongs"}}"#, as: PreferencesUpdate.self, .preferencesSet)
        #expect(error?.message.hasSuffix(#""unit.set" must be "miles" or "km""#) == true)
        #expect(error?.message.contains("furlongs") == false)
    }

    @Test func body_whenSettingUpdateHasNeitherSetNorClear_explainsTheShape() {
        let error = decodeError(#"{"user":"u","radiusMiles":{}}"#, as: PreferencesUpdate.self, .preferencesSet)
        #expect(error?.message.contains(#"{"clear": true}"#) == true)
    }

    @Test(arguments: [#"{"set":10,"clear":true}"#, #"{"clear":true,"set":10}"#, #"{"set":null,"clear":true}"#])
    func body_whenSettingUpdateHasBothSetAndClear_isBadRequest(update: String) {
        let error = decodeError(#"{"user":"u","radiusMiles":\#(update)}"#, as: PreferencesUpdate.self, .preferencesSet)
        #expect(error?.code == .badRequest)
        #expect(error?.message == #"bad body for preferences.set: "radiusMiles" must be {"set": <miles from 1 to 50>} or {"clear": true}"#,
                "\(String(describing: error))")
    }

    @Test func body_whenRadiusIsAString_isBadRequest() {
        let error = decodeError(#"{"user":"u","radiusMiles":{"set":"ten"}}"#, as: PreferencesUpdate.self,
                                .preferencesSet)
        #expect(error?.code == .badRequest)
        #expect(error?.message.contains("radiusMiles.set") == true)
    }

    @Test(arguments: [#"[1,2]"#, #""u1""#, "null", "42"])
    func body_whenNotAnObject_isBadRequest(body: String) {
        #expect(decodeError(body, as: UserRequest.self, .locationGet)?.code == .badRequest)
    }

    @Test func body_whenMissing_saysSo() {
        let payload = Data(#"{"v":1,"id":"t","type":"location.get"}"#.utf8)
        #expect(throws: ServiceError.badRequest("bad body for location.get: the request has no body")) {
            try RequestDecoding.body(UserRequest.self, from: payload, requestType: .locationGet)
        }
    }
}
