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
