import Foundation
import Messages

/// The request logic of dialog-renderer, free of ZeroMQ: a `RenderRequest` in, the spoken
/// dialog, short value, snippet card and (for directions) maps URL out.
public struct RenderHandler: Sendable {
    public let catalog: TemplateCatalog
    /// Gregorian, Europe/London: freshness labels use the UK's calendar days and clock.
    public let calendar: Calendar

    public init(catalog: TemplateCatalog, calendar: Calendar) {
        self.catalog = catalog
        self.calendar = calendar
    }

    /// Renders one outcome. `now` is used when the request has none.
    public func render(_ request: RenderRequest, now: Date = Date()) throws(ServiceError) -> RenderReply {
        let facts = try RenderFacts(request)
        let texts = catalog.texts(for: request.locale)
        let phrases = Phrasebook(texts: texts)
        let outcome = request.outcome
        let renderedAt = request.now ?? now
        // The feed's age on the London calendar, worked out once (calendar arithmetic is the
        // dearest part of a render) for the freshness words and the stale note alike.
        var ageOnce: FeedAge?
        func age() throws(ServiceError) -> FeedAge {
            if let ageOnce { return ageOnce }
            let worked = FeedAge(updated: try facts.updated(), now: renderedAt, calendar: calendar)
            ageOnce = worked
            return worked
        }
        var values: TemplateValues = [:]
        for fact in outcome.factsInOrder {
            values[fact.rawValue] = try value(of: fact, facts, phrases, age: age)
        }
        var dialog = texts.text(TemplateKeys.dialog(outcome), values)
        let value = texts.template(TemplateKeys.value(outcome))?.render(values)
        guard outcome == .found || outcome == .directions else {
            return RenderReply(dialog: dialog, value: value)
        }
        let station = try facts.station()
        let price = try facts.price()
        let feedAge = try age()
        if feedAge.stale { dialog += " " + phrases.staleNote }
        let snippet = Snippet(
            title: texts.text(TemplateKeys.snippetTitle, values),
            subtitle: texts.text(TemplateKeys.snippetSubtitle, values),
            freshness: texts.text(TemplateKeys.snippetFreshness, values),
            price: phrases.price(price),
            id: station.id, postcode: station.postcode, lat: station.lat, lng: station.lng,
            pricePence: price.pence, stale: feedAge.stale)
        let url = outcome == .directions ? MapsLink.directions(lat: station.lat, lng: station.lng) : nil
        return RenderReply(dialog: dialog, value: value, snippet: snippet, opensURL: url)
    }

    private func value(of fact: Fact, _ facts: RenderFacts, _ phrases: Phrasebook,
                       age: () throws(ServiceError) -> FeedAge) throws(ServiceError) -> String {
        switch fact {
        case .station: try facts.station().name.trimmingWhitespace
        case .postcode: try facts.station().postcode
        case .fuel: phrases.spokenFuel(try facts.fuel())
        case .fuelTitle: phrases.fuelTitle(try facts.fuel())
        case .price: phrases.price(try facts.price())
        case .distance: phrases.distance(miles: try facts.distanceMiles(), unit: facts.unit)
        case .freshness: phrases.freshness(try age())
        case .radius: phrases.radius(miles: try facts.radiusMiles(), unit: facts.unit)
        case .unit: phrases.unitName(facts.unit)
        case .word: try facts.word()
        }
    }
}
