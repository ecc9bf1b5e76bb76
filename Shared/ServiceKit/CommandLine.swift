import Foundation

/// A bad flag, value or environment setting: the binary prints one line and exits 64 (EX_USAGE).
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// One command-line option: `--name VALUE` (or `--name=VALUE`), or a bare `--flag`.
public struct OptionSpec: Sendable {
    public let name: String
    /// Placeholder shown in help (`URL`, `FILE`); nil for a bare flag.
    public let value: String?
    public let help: String

    public init(_ name: String, value: String? = nil, help: String) {
        self.name = name
        self.value = value
        self.help = help
    }
}

/// Parsed command line: option values, bare flags, positional arguments.
public struct ParsedArguments: Sendable {
    public var values: [String: String] = [:]
    public var flags: Set<String> = []
    public var positionals: [String] = []

    public init() {}

    public func value(_ name: String) -> String? { values[name] }
    public func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// Parses `arguments` (without the program name) against `options`.
    /// Unknown options, missing values and an option given twice with different values throw
    /// `ConfigurationError`.
    public init(_ arguments: [String], options: [OptionSpec]) throws(ConfigurationError) {
        let byName = Dictionary(options.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--"), argument.count > 2 else {
                positionals.append(argument)
                continue
            }
            var name = argument
            var inline: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            guard let spec = byName[name] else {
                throw ConfigurationError("unknown option \(name) (see --help)")
            }
            if spec.value == nil {
                guard inline == nil else { throw ConfigurationError("\(name) takes no value") }
                flags.insert(name)
                continue
            }
            let value: String
            if let inline {
                value = inline
            } else if index < arguments.count {
                value = arguments[index]
                index += 1
            } else {
                throw ConfigurationError("\(name) needs a value (\(spec.value!))")
            }
            // Which one was meant is anyone's guess: the last one silently won.
            if let earlier = values[name], earlier != value {
                throw ConfigurationError("\(name) is given twice ('\(earlier)' and '\(value)'): give it once")
            }
            values[name] = value
        }
    }
}

/// The text `--help` prints.
public struct HelpText: Sendable {
    public let usage: String
    public let summary: String
    public let options: [OptionSpec]
    /// A paragraph after the options, if any.
    public let footer: String?

    public init(usage: String, summary: String, options: [OptionSpec], footer: String? = nil) {
        self.usage = usage
        self.summary = summary
        self.options = options
        self.footer = footer
    }

    public var rendered: String {
        var text = "Usage: \(usage)\n\n\(summary)\n\nOptions:\n"
        let width = min(28, options.map { $0.name.count + ($0.value.map { $0.count + 1 } ?? 0) }.max() ?? 0)
        for option in options {
            let left = option.name + (option.value.map { " " + $0 } ?? "")
            text += "  " + left.padding(toLength: max(width, left.count), withPad: " ", startingAt: 0)
                + "  " + option.help + "\n"
        }
        if let footer { text += "\n" + Self.wrapped(footer, width: 100) + "\n" }
        return text
    }

    /// `text` broken into lines of at most `width` characters at spaces (a longer word keeps its line).
    static func wrapped(_ text: String, width: Int) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines.joined(separator: "\n")
    }
}
