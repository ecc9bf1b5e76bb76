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

    /// Writes one line. `valueLimit` cuts each value (a client's text can be long); a service's own
    /// long diagnostic (`cannotStart`) is written whole.
    public func log(_ level: Level, _ message: @autoclosure () -> String,
                    metadata: @autoclosure () -> [String: String] = [:], valueLimit: Int = Logger.maxValue) {
        guard level >= self.level else { return }
        FileHandle.standardError.write(Data(line(level, message(), metadata: metadata(), valueLimit: valueLimit).utf8))
    }

    /// The line `log` writes, ending in a newline.
    func line(_ level: Level, _ message: String, metadata: [String: String], valueLimit: Int = Logger.maxValue,
              at time: Date = Date()) -> String {
        var line = "\(time.formatted(.iso8601)) \(level) \(label): \(Logger.printable(message, limit: Self.maxMessage))"
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            line += " \(key)=\(Logger.quoted(value, limit: valueLimit))"
        }
        return line + "\n"
    }

    /// Characters of a message, and of a value, written at most (a client's text can be long).
    static let maxMessage = 500
    public static let maxValue = 200
    /// A service's own diagnostic at start (a path, SQLite's findings, what to do): whole, up to this.
    static let maxDiagnostic = 4_000

    /// The one line saying why the service cannot start, its advice whole (a damaged store's line
    /// was cut before "or move the file and its ..." at 200 characters: operator QA).
    public func cannotStart(_ error: any Error) {
        log(.error, "cannot start", metadata: ["error": "\(error)"], valueLimit: Self.maxDiagnostic)
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
    static func quoted(_ value: String, limit: Int = maxValue) -> String {
        let flat = printable(value, limit: limit)
        if flat.isEmpty || flat.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" }) {
            return "\"" + flat.replacingOccurrences(of: "\"", with: "'") + "\""
        }
        return flat
    }

    /// `text` as it can stand in one line of a terminal: control characters (line breaks, escape
    /// sequences, DEL, Unicode line separators) written as `\n`, `\r`, `\t` or `\u{1b}`, so text a
    /// client sent can neither start a forged line nor drive the terminal; past `limit`
    /// characters cut with how many more there were.
    static func printable(_ text: String, limit: Int) -> String {
        let needsEscapes = text.unicodeScalars.contains(where: isControl)
        guard needsEscapes || text.utf8.count > limit else { return text }
        var out = ""
        var written = 0
        for scalar in text.unicodeScalars {
            if written >= limit {
                out += "…(\(text.unicodeScalars.count - written) more)"
                break
            }
            written += 1
            guard isControl(scalar) else {
                out.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default: out += "\\u{" + String(scalar.value, radix: 16) + "}"
            }
        }
        return out
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }
}
