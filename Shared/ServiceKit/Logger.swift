import Foundation

/// One line per event on stderr: `<time> <level> <label>: <message> key=value ...`.
///
/// Shaped like swift-log's `Logger` (label, levels, metadata) so that switching later is a rename.
/// Never pass a user's coordinates in a message or metadata.
public struct Logger: Sendable {
    public enum Level: Int, Sendable, Comparable, CaseIterable {
        case trace, debug, info, notice, warning, error, critical

        public init?(name: String) {
            guard let level = Level.allCases.first(where: { "\($0)" == name.lowercased() }) else { return nil }
            self = level
        }

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    public let label: String
    public var level: Level

    public init(label: String, level: Level = .info) {
        self.label = label
        self.level = level
    }

    public func log(_ level: Level, _ message: @autoclosure () -> String,
                    metadata: @autoclosure () -> [String: String] = [:]) {
        guard level >= self.level else { return }
        var line = "\(Date().formatted(.iso8601)) \(level) \(label): \(message())"
        for (key, value) in metadata().sorted(by: { $0.key < $1.key }) {
            line += " \(key)=\(Logger.quoted(value))"
        }
        line += "\n"
        FileHandle.standardError.write(Data(line.utf8))
    }

    public func trace(_ message: @autoclosure () -> String, metadata: @autoclosure () -> [String: String] = [:]) {
        log(.trace, message(), metadata: metadata())
    }
    public func debug(_ message: @autoclosure () -> String, metadata: @autoclosure () -> [String: String] = [:]) {
        log(.debug, message(), metadata: metadata())
    }
    public func info(_ message: @autoclosure () -> String, metadata: @autoclosure () -> [String: String] = [:]) {
        log(.info, message(), metadata: metadata())
    }
    public func notice(_ message: @autoclosure () -> String, metadata: @autoclosure () -> [String: String] = [:]) {
        log(.notice, message(), metadata: metadata())
    }
    public func warning(_ message: @autoclosure () -> String, metadata: @autoclosure () -> [String: String] = [:]) {
        log(.warning, message(), metadata: metadata())
    }
    public func error(_ message: @autoclosure () -> String, metadata: @autoclosure () -> [String: String] = [:]) {
        log(.error, message(), metadata: metadata())
    }

    /// Values with spaces or quotes are quoted so a line stays one parseable line.
    static func quoted(_ value: String) -> String {
        let flat = value.replacingOccurrences(of: "\n", with: " ")
        if flat.isEmpty || flat.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" }) {
            return "\"" + flat.replacingOccurrences(of: "\"", with: "'") + "\""
        }
        return flat
    }
}
