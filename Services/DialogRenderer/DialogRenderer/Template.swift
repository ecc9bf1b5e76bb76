/// One template string, parsed once at start-up: literal text and `{name}` placeholders.
///
/// Syntax: `{name}` is replaced by a value (letters and digits, starting with a letter);
/// `{{` and `}}` stand for literal braces. Anything else with a brace is a syntax error, so a
/// typo in a template file is caught when the service starts, not when a user hears it.
public struct Template: Sendable, Equatable {
    enum Segment: Sendable, Equatable {
        case text(String)
        case placeholder(String)
    }

    let segments: [Segment]
    /// The text as written in the file.
    public let source: String

    /// The placeholder names this template uses.
    public var placeholders: Set<String> {
        Set(segments.compactMap { if case .placeholder(let name) = $0 { name } else { nil } })
    }

    public init(parsing source: String) throws(TemplateSyntaxError) {
        self.source = source
        var segments: [Segment] = []
        var literal = ""
        var index = source.startIndex
        func peek(_ offset: Int) -> Character? {
            source.index(index, offsetBy: offset, limitedBy: source.endIndex).flatMap {
                $0 < source.endIndex ? source[$0] : nil
            }
        }
        while index < source.endIndex {
            let character = source[index]
            if character == "{", peek(1) == "{" {
                literal.append("{")
                index = source.index(index, offsetBy: 2)
            } else if character == "}", peek(1) == "}" {
                literal.append("}")
                index = source.index(index, offsetBy: 2)
            } else if character == "{" {
                let nameStart = source.index(after: index)
                guard let close = source[nameStart...].firstIndex(of: "}") else {
                    throw TemplateSyntaxError("'{' without a closing '}' (write '{{' for a literal brace)")
                }
                let name = String(source[nameStart..<close])
                guard Self.isPlaceholderName(name) else {
                    throw TemplateSyntaxError("'{\(name.prefix(30))}' is not a placeholder (letters and digits only)")
                }
                if !literal.isEmpty { segments.append(.text(literal)) }
                literal = ""
                segments.append(.placeholder(name))
                index = source.index(after: close)
            } else if character == "}" {
                throw TemplateSyntaxError("'}' without an opening '{' (write '}}' for a literal brace)")
            } else {
                literal.append(character)
                index = source.index(after: index)
            }
        }
        if !literal.isEmpty { segments.append(.text(literal)) }
        self.segments = segments
    }

    /// This template with every `{name}` replaced by `text` for good (the app's name, known at start-up).
    func filling(_ name: String, with text: String) -> Template {
        var filled: [Segment] = []
        for segment in segments {
            let piece = segment == .placeholder(name) ? Segment.text(text) : segment
            if case .text(let more) = piece, case .text(let before)? = filled.last {
                filled[filled.count - 1] = .text(before + more)
            } else {
                filled.append(piece)
            }
        }
        return Template(segments: filled, source: source)
    }

    private init(segments: [Segment], source: String) {
        self.segments = segments
        self.source = source
    }

    /// Fills the placeholders; `value` is asked for each one in turn.
    public func render<Failure: Error>(_ value: (String) throws(Failure) -> String) throws(Failure) -> String {
        var text = ""
        for segment in segments {
            switch segment {
            case .text(let literal): text += literal
            case .placeholder(let name): text += try value(name)
            }
        }
        return text
    }

    /// Fills the placeholders from `values`; a name it lacks is left as `{name}`.
    public func render(_ values: TemplateValues) -> String {
        render { (name: String) -> String in values[name] ?? "{\(name)}" }
    }

    static func isPlaceholderName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.properties.isAlphabetic, first.isASCII else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }
    }
}

/// What is wrong with one template string.
public struct TemplateSyntaxError: Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
