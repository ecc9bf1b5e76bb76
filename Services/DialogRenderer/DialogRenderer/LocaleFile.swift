import Foundation
import Messages

/// One locale's templates, read from `<locale>.json` and checked key by key.
struct LocaleFile: Sendable {
    /// The locale as the file name spells it ("en-GB").
    let locale: String
    let templates: [String: Template]

    /// The placeholder any text may use: the app's name, filled in once at start-up.
    static let appPlaceholder = "app"

    /// Parses and checks a file's contents: a JSON object whose leaves are strings; keys starting
    /// with `_` are comments; every other key must be known and use only its own placeholders
    /// and `{app}`, which becomes `appName` here.
    init(locale: String, file: String, contents: Data, appName: String) throws(TemplateError) {
        guard Self.isLocaleIdentifier(locale) else {
            throw TemplateError(file: file, "the file name must be a locale followed by .json, like en-GB.json")
        }
        let root: JSONValue
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: contents)
        } catch {
            throw TemplateError(file: file, "not valid JSON (\(Self.describe(error)))")
        }
        guard case .object(let members) = root else {
            throw TemplateError(file: file, "expected a JSON object at the top level")
        }
        var templates: [String: Template] = [:]
        try Self.collect(members, prefix: "", file: file, into: &templates)
        self.locale = locale
        self.templates = templates.mapValues { $0.filling(Self.appPlaceholder, with: appName) }
    }

    private static func collect(_ members: [String: JSONValue], prefix: String, file: String,
                                into templates: inout [String: Template]) throws(TemplateError) {
        for (name, value) in members where !name.hasPrefix("_") {
            let key = prefix.isEmpty ? name : prefix + "." + name
            switch value {
            case .object(let children):
                try collect(children, prefix: key, file: file, into: &templates)
            case .string(let text):
                templates[key] = try check(text, key: key, file: file)
            default:
                throw TemplateError(file: file, key: key, "expected a text or a group of texts")
            }
        }
    }

    private static func check(_ text: String, key: String, file: String) throws(TemplateError) -> Template {
        guard let spec = TemplateKeys.all[key] else {
            throw TemplateError(file: file, key: key, "unknown key (keys starting with _ are comments)")
        }
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw TemplateError(file: file, key: key, "empty text")
        }
        let template: Template
        do {
            template = try Template(parsing: text)
        } catch {
            throw TemplateError(file: file, key: key, error.description)
        }
        let unknown = template.placeholders.subtracting(spec.placeholders).subtracting([appPlaceholder])
        if let name = unknown.sorted().first {
            let allowed = (spec.placeholders.sorted() + [appPlaceholder]).map { "{\($0)}" }.joined(separator: ", ")
            throw TemplateError(file: file, key: key, "{\(name)} cannot be used here; it may use \(allowed)")
        }
        return template
    }

    /// "en-GB", "cy", "pt-BR", "zh-Hant-TW": letters, then hyphen-separated letters or digits.
    static func isLocaleIdentifier(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let language = parts.first, (2...3).contains(language.count),
              language.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        return parts.dropFirst().allSatisfy { part in
            (2...8).contains(part.count) && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? DecodingError, case .dataCorrupted(let context) = error {
            let underlying = context.underlyingError.map { "\($0)" } ?? context.debugDescription
            return String(underlying.prefix(200))
        }
        return String("\(error)".prefix(200))
    }
}
