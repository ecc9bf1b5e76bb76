import Foundation
import Messages

/// Puts an outcome into words through dialog-renderer, falling back to built-in English when
/// the renderer is down, slow or says nothing, and assembles the reply body.
final class Speaker {
    let dialog: BackendChannel
    let appName: String
    private(set) var fallbacks: UInt64 = 0

    init(dialog: BackendChannel, appName: String) {
        self.dialog = dialog
        self.appName = appName
    }

    func speak(_ handled: Handled, for ask: AskContext, done: @escaping (Answer) -> Void) {
        var request = handled.render
        request.locale = ask.locale
        request.now = ask.now
        var decision = ask.decision
        if let parameters = handled.parameters { decision.parameters = parameters }
        if handled.endsSession { decision.session = nil }
        if let continuesIn = handled.continuesIn { decision.session = continuesIn }
        if let needs = handled.needsAgain { decision.needs = needs }
        guard ContinuousClock.now < ask.renderDeadline else {
            // No time left to ask the renderer (the data took it): its absence is not its fault.
            fallbacks += 1
            let rendered = Self.adding(handled.addedSentences, to: FallbackDialog.render(request, appName: appName))
            return done(.reply(Self.reply(handled.code, request, rendered, decision, degraded: handled.degraded)))
        }
        dialog.call(.dialogRender, request, as: RenderedWords.self, deadline: ask.renderDeadline) { [self] result in
            if case .success(.spliced(let raw)) = result, handled.addedSentences.isEmpty,
               var spliced = Self.spliced(handled.code, request, raw, decision) {
                spliced.degraded = handled.degraded.isEmpty ? nil : handled.degraded
                return done(.spliced(spliced))
            }
            var rendered: RenderReply
            var degraded = handled.degraded
            if case .success(let words) = result, let reply = words.reply, !reply.dialog.isEmpty {
                rendered = reply
            } else {
                fallbacks += 1
                rendered = FallbackDialog.render(request, appName: appName)
                degraded.append(Backends.dialogRendererName)
            }
            rendered = Self.adding(handled.addedSentences, to: rendered)
            done(.reply(Self.reply(handled.code, request, rendered, decision, degraded: degraded)))
        }
    }

    /// The words with `sentences` said after their dialog.
    static func adding(_ sentences: [String], to words: RenderReply) -> RenderReply {
        guard !sentences.isEmpty else { return words }
        var words = words
        words.dialog = ([words.dialog] + sentences).joined(separator: " ")
        return words
    }

    /// The reply carrying the renderer's words as it wrote them, when that says what `reply`
    /// would: a dialog that is not empty, and a found station's card that already has the
    /// station facts (nil otherwise: the words are decoded and completed instead).
    static func spliced(_ code: AssistantCode, _ request: RenderRequest, _ rendered: RawRenderReply,
                        _ decision: Decision) -> SplicedReply? {
        guard rendered.dialog.count > 2 else { return nil }
        let showsStation = request.outcome.isStationAnswer
        var mapsURL: String?
        if let station = request.station, showsStation {
            guard rendered.snippet != nil, rendered.snippetHasStationFacts else { return nil }
            if request.outcome.givesDirections, rendered.opensURL == nil {
                mapsURL = FallbackDialog.mapsURL(lat: station.lat, lng: station.lng)
            }
        }
        return SplicedReply(code: code, rendered: rendered, opensURL: mapsURL,
                            keepsRenderedURL: request.outcome.givesDirections, outcome: request.outcome,
                            decision: decision)
    }

    /// The reply for an ask that ran out of time before anything could be said.
    func timedOut(_ ask: AskContext) -> Answer {
        let request = RenderRequest(outcome: .pricesUnavailable, locale: ask.locale, now: ask.now)
        fallbacks += 1
        var decision = ask.decision
        if decision.action != nil { decision.session = nil }  // nothing was found to follow up
        return .reply(Self.reply(.failure, request, FallbackDialog.render(request, appName: appName), decision))
    }

    static func reply(_ code: AssistantCode, _ request: RenderRequest, _ rendered: RenderReply,
                      _ decision: Decision, degraded: [String] = []) -> AssistantReply {
        var snippet = rendered.snippet
        var opensURL = rendered.opensURL
        if let station = request.station, request.outcome.isStationAnswer {
            snippet = withStationFacts(snippet, station: station, pricePence: request.pricePence)
            if request.outcome.givesDirections, opensURL == nil {
                opensURL = FallbackDialog.mapsURL(lat: station.lat, lng: station.lng)
            }
        }
        if !request.outcome.givesDirections { opensURL = nil }
        return AssistantReply(code: code, dialog: rendered.dialog, value: rendered.value, snippet: snippet,
                              opensURL: opensURL, session: decision.session, intent: decision.intent?.rawValue,
                              parameters: decision.parameters, outcome: request.outcome, needs: decision.needs,
                              degraded: degraded.isEmpty ? nil : degraded)
    }

    /// The contract's station facts on a found station's snippet, whatever the renderer sent.
    static func withStationFacts(_ snippet: Snippet?, station: StationSummary, pricePence: Double?) -> Snippet {
        var card = snippet ?? Snippet(title: station.name)
        card.id = card.id ?? station.id
        card.postcode = card.postcode ?? station.postcode
        card.lat = card.lat ?? station.lat
        card.lng = card.lng ?? station.lng
        card.pricePence = card.pricePence ?? pricePence
        return card
    }
}
