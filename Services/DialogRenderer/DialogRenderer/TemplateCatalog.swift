import Foundation
import ServiceKit

/// Every locale's templates, checked at start-up, with the fallback rules applied on lookup.
///
/// A locale is one file, `<locale>.json`, in one folder (the bundled `Templates`, or another
/// given with `--templates`). en-GB is the base: it must have every required key, and any
/// key another locale lacks, or any locale nobody provides, falls back to it.
public struct TemplateCatalog: Sendable {
    public static let baseLocale = "en-GB"

    /// The locales available, sorted ("cy-GB", "en-GB").
    public let locales: [String]
    /// The app name the texts' `{app}` says.
    public let appName: String
    /// Templates by lower-cased locale.
    private let tables: [String: [String: Template]]
    private let canonicalNames: [String: String]
    /// Every locale's texts (en-GB filled in behind them), worked out once: by file name (the
    /// requests that name a locale exactly) and by lower-cased locale (the others, once resolved).
    private let textsByName: [String: LocaleTexts]
    private let textsByKey: [String: LocaleTexts]
    private let baseTexts: LocaleTexts
    /// `textsByName` as UTF-8, for requests read from the wire.
    private let textsByUTF8Name: [(name: [UInt8], texts: LocaleTexts)]

    /// Loads every `*.json` file in `directory` (other files are ignored); `{app}` says `appName`.
    public init(directory: URL, appName: String = AppNameSetting.defaultName) throws(TemplateError) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw TemplateError("cannot read the template folder \(directory.path) (\(error.localizedDescription))")
        }
        var files: [String: Data] = [:]
        for name in names where name.hasSuffix(".json") {
            do {
                files[name] = try Data(contentsOf: directory.appendingPathComponent(name))
            } catch {
                throw TemplateError(file: name, "cannot be read (\(error.localizedDescription))")
            }
        }
        try self.init(files: files, appName: appName)
    }

    /// Builds a catalog from file names and contents (`["en-GB.json": data]`).
    public init(files: [String: Data], appName: String = AppNameSetting.defaultName) throws(TemplateError) {
        self.appName = appName
        var tables: [String: [String: Template]] = [:]
        var canonicalNames: [String: String] = [:]
        for (name, contents) in files.sorted(by: { $0.key < $1.key }) {
            guard name.hasSuffix(".json") else { throw TemplateError(file: name, "a template file must end in .json") }
            let locale = String(name.dropLast(".json".count))
            let file = try LocaleFile(locale: locale, file: name, contents: contents, appName: appName)
            let key = locale.lowercased()
            if let existing = canonicalNames[key] {
                throw TemplateError(file: name, "the same locale as \(existing).json")
            }
            tables[key] = file.templates
            canonicalNames[key] = locale
        }
        guard let base = tables[Self.baseLocale.lowercased()] else {
            throw TemplateError(file: "\(Self.baseLocale).json", "missing: the base locale is required")
        }
        let missing = TemplateKeys.all.filter { $0.value.required && base[$0.key] == nil }.map(\.key).sorted()
        if !missing.isEmpty {
            let list = missing.prefix(5).joined(separator: ", ") + (missing.count > 5 ? ", ..." : "")
            throw TemplateError(file: "\(Self.baseLocale).json",
                                "missing \(missing.count) required key\(missing.count == 1 ? "" : "s"): \(list)")
        }
        self.tables = tables
        self.canonicalNames = canonicalNames
        locales = canonicalNames.values.sorted()
        baseTexts = LocaleTexts(locale: Self.baseLocale, primary: base, base: base)
        let textsByKey = Dictionary(uniqueKeysWithValues: canonicalNames.map { key, name in
            (key, LocaleTexts(locale: name, primary: tables[key] ?? base, base: base))
        })
        self.textsByKey = textsByKey
        textsByName = Dictionary(uniqueKeysWithValues: textsByKey.values.map { ($0.locale, $0) })
        textsByUTF8Name = textsByName.sorted { $0.key < $1.key }.map { (Array($0.key.utf8), $0.value) }
    }

    /// The `Templates` resource folder shipped with the service.
    ///
    /// Looked up beside the executable (where SwiftPM and the install scripts put the resource
    /// bundle) instead of through `Bundle.module`, which stops the process when the bundle is
    /// missing; a missing bundle is reported as one clear line instead.
    public static var bundledDirectory: URL? {
        let bundleName = "FuelBoard_DialogRenderer.resources"
        let executable = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        let candidates = [
            executable.resolvingSymlinksInPath().deletingLastPathComponent(),
            executable.deletingLastPathComponent(),
            Bundle.main.resourceURL,
            Bundle.main.bundleURL,
        ].compactMap { $0 }.map { $0.appendingPathComponent(bundleName).appendingPathComponent("Templates") }
        return candidates.first { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// The templates shipped with the service (the `Templates` resource folder).
    public static func bundled(appName: String = AppNameSetting.defaultName) throws(TemplateError) -> TemplateCatalog {
        guard let directory = bundledDirectory else {
            throw TemplateError("the bundled templates (FuelBoard_DialogRenderer.resources/Templates) are not next "
                + "to the binary: copy that folder beside it, or pass --templates DIR")
        }
        return try TemplateCatalog(directory: directory, appName: appName)
    }

    /// The texts for a requested locale: an exact match (any case, `_` or `-`), else a locale
    /// of the same language, else en-GB. Missing keys always fall back to en-GB.
    public func texts(for requested: String?) -> LocaleTexts {
        guard let requested else { return baseTexts }
        if let exact = textsByName[requested] { return exact }
        return textsByKey[resolve(requested)] ?? baseTexts
    }

    /// `texts(for:)` for a locale given as UTF-8 (nil: none given): an exact name is matched
    /// byte for byte, anything else is resolved as text.
    func texts(forUTF8 requested: UnsafeBufferPointer<UInt8>?) -> LocaleTexts {
        guard let requested else { return baseTexts }
        for (name, texts) in textsByUTF8Name where name.count == requested.count {
            if name.withUnsafeBufferPointer({ $0.elementsEqual(requested) }) { return texts }
        }
        guard let wanted = Self.normalizedASCII(requested) else {
            return texts(for: String(decoding: requested, as: UTF8.self))
        }
        return textsByKey[resolve(normalized: wanted)] ?? baseTexts
    }

    /// The lower-cased key of the locale that answers `requested`.
    private func resolve(_ requested: String?) -> String {
        resolve(normalized: (requested ?? "").trimmingCharacters(in: .whitespaces)
            .replacingOccurrences(of: "_", with: "-").lowercased())
    }

    /// What `resolve` makes of ASCII text before it looks it up (spaces and tabs trimmed, `_` as
    /// `-`, lower case), without Foundation's text functions; nil for text that is not ASCII.
    private static func normalizedASCII(_ text: UnsafeBufferPointer<UInt8>) -> String? {
        guard text.allSatisfy({ $0 < 0x80 }) else { return nil }
        var start = 0, end = text.count
        while start < end, text[start] == 0x20 || text[start] == 0x09 { start += 1 }
        while end > start, text[end - 1] == 0x20 || text[end - 1] == 0x09 { end -= 1 }
        return String(unsafeUninitializedCapacity: end - start) { buffer in
            for index in start..<end {
                let byte = text[index]
                buffer[index - start] = byte == UInt8(ascii: "_") ? UInt8(ascii: "-")
                    : (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 0x20 : byte
            }
            return end - start
        }
    }

    /// The key of the locale that answers an already normalized request.
    private func resolve(normalized wanted: String) -> String {
        if tables[wanted] != nil { return wanted }
        if let language = wanted.split(separator: "-").first, !language.isEmpty {
            let baseKey = Self.baseLocale.lowercased()
            let sameLanguage = tables.keys.filter { $0 == language || $0.hasPrefix(language + "-") }
            if sameLanguage.contains(baseKey) { return baseKey }
            if let first = sameLanguage.sorted().first { return first }
        }
        return Self.baseLocale.lowercased()
    }
}

/// One locale's texts, with en-GB behind it for any key the locale lacks.
public struct LocaleTexts: Sendable {
    /// The locale that answered ("en-GB" after a fallback).
    public let locale: String
    /// The locale's templates with en-GB's behind them (one lookup per key).
    private let templates: [String: Template]
    /// The same texts compiled for rendering, as text and as JSON string text.
    let phrases: LocalePhrases
    let jsonPhrases: LocalePhrases

    init(locale: String, primary: [String: Template], base: [String: Template]) {
        self.locale = locale
        templates = base.merging(primary) { _, own in own }
        phrases = LocalePhrases(templates: templates, jsonEscaped: false)
        jsonPhrases = LocalePhrases(templates: templates, jsonEscaped: true)
    }

    /// The template for `key`, or nil for an optional key that no locale has.
    public func template(_ key: String) -> Template? {
        templates[key]
    }

}
