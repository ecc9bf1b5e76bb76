import Foundation
import Messages

/// What the router answers an ask with: a reply built from values, or one that carries the
/// renderer's words as the renderer wrote them (the same JSON, without decoding and re-encoding).
enum Answer {
    case reply(AssistantReply)
    case spliced(SplicedReply)

    var code: AssistantCode {
        switch self {
        case .reply(let reply): reply.code
        case .spliced(let reply): reply.code
        }
    }

    var intent: String? {
        switch self {
        case .reply(let reply): reply.intent
        case .spliced(let reply): reply.decision.intent?.rawValue
        }
    }

    var outcome: DialogOutcome? {
        switch self {
        case .reply(let reply): reply.outcome
        case .spliced(let reply): reply.outcome
        }
    }
}

/// An `assistant.ask` reply whose dialog, value, snippet and URL are the renderer's JSON text,
/// written member for member as `AssistantReply` writes them (keys in the same order).
struct SplicedReply: JSONWritable, Encodable {
    let code: AssistantCode
    let rendered: RawRenderReply
    /// The maps link the router adds when the renderer gave none (directions only).
    let opensURL: String?
    /// Whether the renderer's link is kept (only a directions answer opens one).
    let keepsRenderedURL: Bool
    let outcome: DialogOutcome
    let decision: Decision
    /// The services the answer was given without (`AssistantReply.degraded`).
    var degraded: [String]?

    func writeJSON(to writer: inout JSONWriter) {
        var first = true
        writer.byte(UInt8(ascii: "{"))
        writer.key("code", first: &first); writer.string(code.rawValue)
        if let degraded {
            writer.key("degraded", first: &first); JSONValue.array(degraded.map { .string($0) }).writeJSON(to: &writer)
        }
        writer.key("dialog", first: &first); rendered.write(rendered.dialog, to: &writer)
        if let intent = decision.intent { writer.key("intent", first: &first); writer.string(intent.rawValue) }
        if let needs = decision.needs { writer.key("needs", first: &first); writer.string(needs) }
        if keepsRenderedURL, let url = rendered.opensURL {
            writer.key("opensURL", first: &first); rendered.write(url, to: &writer)
        } else if let opensURL {
            writer.key("opensURL", first: &first); writer.string(opensURL)
        }
        writer.key("outcome", first: &first); writer.string(outcome.rawValue)
        if let parameters = decision.parameters {
            writer.key("parameters", first: &first); JSONValue.object(parameters).writeJSON(to: &writer)
        }
        if let session = decision.session { writer.key("session", first: &first); writer.string(session) }
        if let snippet = rendered.snippet { writer.key("snippet", first: &first); rendered.write(snippet, to: &writer) }
        if let value = rendered.value { writer.key("value", first: &first); rendered.write(value, to: &writer) }
        writer.byte(UInt8(ascii: "}"))
    }

    /// The same reply as values.
    var assistantReply: AssistantReply {
        let words = rendered.decoded ?? RenderReply(dialog: "")
        let url = keepsRenderedURL ? words.opensURL ?? opensURL : opensURL
        return AssistantReply(code: code, dialog: words.dialog, value: words.value, snippet: words.snippet,
                              opensURL: url, session: decision.session, intent: decision.intent?.rawValue,
                              parameters: decision.parameters, outcome: outcome, needs: decision.needs,
                              degraded: degraded)
    }

    /// Encodes as the reply it writes (used only where writing by hand is refused, which the
    /// renderer's checked text never is).
    func encode(to encoder: any Encoder) throws {
        try assistantReply.encode(to: encoder)
    }
}
