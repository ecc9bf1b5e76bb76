import Foundation
import Messages

/// The request logic of dialog-renderer, free of ZeroMQ: a `RenderRequest` in, the spoken
/// dialog, short value, snippet card and (for directions) maps URL out.
public struct RenderHandler: Sendable {
    public let catalog: TemplateCatalog
    /// Gregorian, Europe/London: freshness labels use the UK's calendar days and clock.
    public let calendar: Calendar
    /// `calendar`'s dates and times, read cheaply.
    let clock: LocalClock

    public init(catalog: TemplateCatalog, calendar: Calendar) {
        self.catalog = catalog
        self.calendar = calendar
        clock = LocalClock(calendar: calendar)
    }

    /// Renders one outcome. `now` is used when the request has none.
    public func render(_ request: RenderRequest, now: Date = Date()) throws(ServiceError) -> RenderReply {
        let facts = try RenderFacts(request)
        let texts = catalog.texts(for: request.locale)
        let outcome = request.outcome
        let renderedAt = request.now ?? now
        var scratch = TextScratch(capacity: 1024)
        var input = RenderInput(outcome: outcome)
        input.unit = facts.unit
        input.defaultSettings = request.defaultSettings == true
        // Every fact the outcome uses is checked, in name order: the first bad one is the error.
        for fact in outcome.factsInOrder {
            switch fact {
            case .station, .postcode:
                let station = try facts.station()
                if input.station == nil {
                    input.station = scratch.phrase { $0.append(text: station.name.trimmingWhitespace) }
                    input.postcode = scratch.phrase { $0.append(text: station.postcode) }
                }
            case .fuel, .fuelTitle:
                input.fuel = try facts.fuel()
            case .price:
                input.price = try facts.price()
            case .distance:
                input.distanceMiles = try facts.distanceMiles()
            case .freshness:
                input.age = FeedAge(updated: try facts.updated(), now: renderedAt, clock: clock)
            case .radius:
                input.radiusMiles = try facts.radiusMiles()
            case .unit, .minRadius, .maxRadius:
                break
            case .word:
                let word = try facts.word()
                input.word = scratch.phrase { $0.append(text: word) }
            case .place:
                input.place = LocationAge(at: request.locationAt, now: renderedAt, clock: clock)
            }
        }
        if outcome.isStationAnswer, let passed = request.passedOver {
            // Only a real price is named; a bad one is dropped rather than failing the answer.
            let name = passed.station.trimmingWhitespace
            if !name.isEmpty, name.count <= 200, let price = RenderFacts.checkedPrice(pence: passed.pricePence) {
                input.passedOver = (scratch.phrase { $0.append(text: name) }, price,
                                    FeedAge(updated: passed.updated, now: renderedAt, clock: clock))
            }
        }
        guard outcome.isStationAnswer else {
            let text = texts.phrases.render(input, into: &scratch)
            return RenderReply(dialog: scratch.string(text.dialog), value: scratch.string(text.value))
        }
        let station = try facts.station()
        let price = try facts.price()
        input.priceOutlier = request.priceOutlier
        if input.age == nil { input.age = FeedAge(updated: try facts.updated(), now: renderedAt, clock: clock) }
        let text = texts.phrases.render(input, into: &scratch)
        let card = text.card
        let snippet = Snippet(
            title: scratch.string(card?.title) ?? "", subtitle: scratch.string(card?.subtitle),
            freshness: scratch.string(card?.freshness), price: scratch.string(card?.price),
            id: station.id, postcode: station.postcode, lat: station.lat, lng: station.lng,
            pricePence: price.pence, stale: card?.stale ?? false, priceOutlier: card?.priceOutlier)
        let url = outcome.givesDirections ? MapsLink.directions(lat: station.lat, lng: station.lng) : nil
        return RenderReply(dialog: scratch.string(text.dialog), value: scratch.string(text.value),
                           snippet: snippet, opensURL: url)
    }
}
