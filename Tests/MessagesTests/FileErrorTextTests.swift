import Foundation
import Messages
import Testing

/// Foundation's file errors read as one line a person understands, never as a dump of user info.
struct FileErrorTextTests {
    private static func error(reading path: String) -> (any Error)? {
        do {
            _ = try String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8)
            return nil
        } catch {
            return error
        }
    }

    @Test func aMissingFile_saysSo() throws {
        let path = "/nonexistent-\(UUID().uuidString)/feeds.txt"
        let error = try #require(Self.error(reading: path))
        let text = FileErrorText.describe(error, path: path)
        #expect(text == "\(path): No such file or directory")
    }

    @Test func aDirectory_saysSo_withoutFoundationsDump() throws {
        let path = FileManager.default.temporaryDirectory.path
        let error = try #require(Self.error(reading: path))
        let text = FileErrorText.describe(error, path: path)
        #expect(text.hasPrefix("\(path): "))
        #expect(!text.contains("NSCocoaErrorDomain") && !text.contains("UserInfo"), "\(text)")
        #expect(!text.contains("\n"))
    }
}
