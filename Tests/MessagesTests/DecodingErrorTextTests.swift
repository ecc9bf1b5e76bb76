import Foundation
import Messages
import Testing

/// A body that does not decode is described for the person who sent it: the field and the JSON kind
/// it needs, never a Swift type (`Expected to decode Dictionary<String, Any> but found an array`).
struct DecodingErrorTextTests {
    private struct Body: Decodable {
        var location: [String: Double]?
        var name: String?
        var radius: Double?
        var tags: [String]?
        var confirm: Bool?
        var id: Int
    }

    private func described(_ json: String) -> String {
        do {
            _ = try JSONDecoder().decode(Body.self, from: Data(json.utf8))
            return "decoded"
        } catch {
            return ServiceError.describe(error)
        }
    }

    private struct Strict: Decodable {
        init(from decoder: any Decoder) throws {
            throw DecodingError.typeMismatch(String.self, .init(codingPath: [], debugDescription: "a string or a number"))
        }
    }

    @Test func aDecodersOwnWords_areKept() {
        do {
            _ = try JSONDecoder().decode(Strict.self, from: Data("[]".utf8))
            Issue.record("decoded")
        } catch {
            #expect(ServiceError.describe(error) == "wrong type: a string or a number")
        }
    }

    @Test(arguments: [
        (#"{"id": 1, "location": []}"#, "wrong type at location: expected an object"),
        (#"{"id": 1, "name": 5}"#, "wrong type at name: expected a string"),
        (#"{"id": 1, "radius": "far"}"#, "wrong type at radius: expected a number"),
        (#"{"id": 1, "tags": {}}"#, "wrong type at tags: expected an array"),
        (#"{"id": 1, "confirm": "yes"}"#, "wrong type at confirm: expected true or false"),
        (#"{"id": "one"}"#, "wrong type at id: expected a number"),
        (#"{"name": "x"}"#, #"missing field "id""#),
    ])
    func aBodyThatDoesNotDecode_namesTheFieldAndWhatItNeeds(json: String, expected: String) {
        #expect(described(json) == expected)
    }
}

/// A value no `JSONValue` case can hold (a number past a double's range) is said to be unreadable,
/// at its place: it was "wrong type at parameters.miles: expected an object" (QA).
struct UnreadableJSONValueTests {
    private struct Body: Decodable {
        var parameters: [String: JSONValue]
    }

    @Test(arguments: [
        (#"{"parameters": {"miles": 1e400}}"#, "parameters.miles"),
        (#"{"parameters": {"near": {"miles": -1e400}}}"#, "parameters.near.miles"),
        (#"{"parameters": {"list": [1, 1e-400]}}"#, "parameters.list"),
    ])
    func aNumberADoubleCannotHold_isUnreadableAtItsPlace(json: String, place: String) throws {
        let error = try #require(throws: DecodingError.self) { try JSONDecoder().decode(Body.self, from: Data(json.utf8)) }
        let text = ServiceError.describe(error)
        #expect(text.contains(JSONCoding.unreadableValue), "\(text)")
        #expect(text.contains(place), "\(text)")
    }

    @Test func everyKindOfValue_stillDecodes() throws {
        let body = try JSONDecoder().decode(Body.self, from: Data(
            #"{"parameters": {"a": null, "b": true, "c": 1.5, "d": "x", "e": [1], "f": {"g": 0}}}"#.utf8))
        #expect(body.parameters == ["a": .null, "b": .bool(true), "c": .number(1.5), "d": .string("x"),
                                    "e": .array([.number(1)]), "f": .object(["g": .number(0)])])
    }
}
