import Messages

/// A `Template` compiled into a `TemplatePool`: which of the pool's parts are its own. A plain
/// value (no references), so handing one around costs nothing.
struct CompiledTemplate: Sendable {
    fileprivate let parts: Range<Int>

    /// No text at all.
    static let empty = CompiledTemplate(parts: 0..<0)
}

/// The compiled templates of one locale: literal text as UTF-8 and placeholders as slots, in two
/// blocks of memory the pool owns (a render reads them with no reference counting). Renders
/// exactly as `Template.render(_:)` does, a value never given (or a name that is no slot) coming
/// out as `{name}`.
///
/// A `jsonEscaped` pool keeps literal text as it stands inside a JSON string (escaped as
/// `JSONWriter` escapes it): filled with values that are themselves JSON string text, a render
/// is then the JSON text of the rendered string.
final class TemplatePool: @unchecked Sendable {
    // @unchecked: the memory is written only while the pool is built, then only read.

    /// A run of `utf8` (`slot` < 0) or the value of a slot.
    fileprivate struct Part {
        let slot: Int
        let start: Int
        let end: Int
    }

    private let utf8: UnsafeMutableBufferPointer<UInt8>
    private let parts: UnsafeMutableBufferPointer<Part>
    let jsonEscaped: Bool

    /// Compiles `templates`; `compiled` maps each (by its index there) to its parts.
    init(_ templates: [Template], jsonEscaped: Bool, compiled: inout [CompiledTemplate]) {
        var text: [UInt8] = []
        var parts: [Part] = []
        compiled = templates.map { template in
            let first = parts.count
            func literal(_ literal: String) {
                let start = text.count
                text.append(contentsOf: jsonEscaped ? Self.jsonStringText(literal) : Array(literal.utf8))
                if parts.count > first, let last = parts.last, last.slot < 0, last.end == start {
                    parts[parts.count - 1] = Part(slot: -1, start: last.start, end: text.count)
                } else {
                    parts.append(Part(slot: -1, start: start, end: text.count))
                }
            }
            for segment in template.segments {
                switch segment {
                case .text(let text):
                    literal(text)
                case .placeholder(let name):
                    if let slot = Slot(name: name) {
                        parts.append(Part(slot: slot.rawValue, start: 0, end: 0))
                    } else {
                        literal("{\(name)}")
                    }
                }
            }
            return CompiledTemplate(parts: first..<parts.count)
        }
        self.jsonEscaped = jsonEscaped
        utf8 = .allocate(capacity: max(text.count, 1))
        _ = utf8.initialize(from: text)
        self.parts = .allocate(capacity: max(parts.count, 1))
        _ = self.parts.initialize(from: parts)
    }

    deinit {
        utf8.deallocate()
        parts.deallocate()
    }

    /// What `JSONWriter.string` writes for `text`, without the quotes.
    static func jsonStringText(_ text: String) -> [UInt8] {
        var writer = JSONWriter(capacity: text.utf8.count * 6 + 2)
        writer.string(text)
        return Array(writer.bytes.dropFirst().dropLast())
    }

    /// Appends `template`'s text with `values` filled in and returns where it is.
    func render(_ template: CompiledTemplate, into scratch: inout TextScratch, _ values: SlotValues) -> Range<Int> {
        let start = scratch.count
        for index in template.parts {
            let part = parts[index]
            if part.slot < 0 {
                scratch.append(UnsafeBufferPointer(rebasing: utf8[part.start..<part.end]))
            } else if let value = values[lane: part.slot] {
                scratch.appendCopy(of: value)
            } else {
                appendPlaceholder(part.slot, to: &scratch)
            }
        }
        return start..<scratch.count
    }

    /// The text of a template without placeholders (or with them left as `{name}`).
    func render(_ template: CompiledTemplate, into scratch: inout TextScratch) -> Range<Int> {
        let start = scratch.count
        for index in template.parts {
            let part = parts[index]
            if part.slot < 0 {
                scratch.append(UnsafeBufferPointer(rebasing: utf8[part.start..<part.end]))
            } else {
                appendPlaceholder(part.slot, to: &scratch)
            }
        }
        return start..<scratch.count
    }

    /// `{name}`, for a slot without a value.
    private func appendPlaceholder(_ slot: Int, to scratch: inout TextScratch) {
        scratch.append(byte: UInt8(ascii: "{"))
        scratch.append(text: Slot(rawValue: slot)?.name ?? "")
        scratch.append(byte: UInt8(ascii: "}"))
    }
}
