import Foundation
import Messages

/// Built-in English for every outcome, spoken when dialog-renderer is down or slow, so the user
/// always hears something.
public enum FallbackDialog {
    public static func render(_ request: RenderRequest, appName: String) -> RenderReply {
        let fuel = request.fuel.flatMap(FuelCode.init(code:))?.spokenName ?? "fuel"
        let unit = request.unit ?? .miles
        switch request.outcome {
        case .found, .directions, .nearestFound, .nearestDirections:
            return station(request, fuel: fuel, unit: unit)
        case .noPrices:
            return RenderReply(dialog: "I don't have any fuel prices yet. Please try again later.")
        case .noLocation:
            return RenderReply(dialog: "I don't know your location yet. Open \(appName) and allow location access, then ask me again.")
        case .nothingInRange:
            let radius = distance(request.radiusMiles ?? Preferences.defaultRadiusMiles, unit)
            let place = PriceAgeWords.place(observedAt: request.locationAt, now: request.now ?? Date())
            let largest = request.radiusMiles.map(Preferences.isLargestRadius) == true ? " That's as far as I look." : ""
            return RenderReply(dialog: "I don't have \(fuel) prices for any station within \(radius) of \(place)."
                                   + largest + defaultSettingsNote(request),
                               value: "None within \(radius)")
        case .askFuel:
            return RenderReply(dialog: "Which fuel: unleaded, premium, diesel or super diesel?")
        case .unsupportedFuel:
            let word = request.word.map { String($0.prefix(40)) } ?? "that"
            return RenderReply(dialog: "\(appName) doesn't have prices for \(word). "
                + "It has unleaded, premium unleaded, diesel and super diesel.")
        case .askRadius:
            let limits = Preferences.radiusLimits(in: unit)
            return RenderReply(dialog: "How far should I look for fuel? You can choose anything from "
                + "\(limits.lowerBound) to \(limits.upperBound) \(unit == .km ? "km" : "miles").")
        case .radiusOutOfRange:
            let limits = Preferences.radiusLimits(in: unit)
            return RenderReply(dialog: "Sorry, the search radius has to be between \(limits.lowerBound) and "
                + "\(limits.upperBound) \(unit == .km ? "km" : "miles").")
        case .radiusSet:
            let radius = distance(request.radiusMiles ?? Preferences.defaultRadiusMiles, unit)
            return RenderReply(dialog: "OK, I'll look for fuel within \(radius) of you from now on.", value: radius)
        case .radiusCleared:
            let radius = distance(Preferences.defaultRadiusMiles, unit)
            return RenderReply(dialog: "OK, I'm back to looking for fuel within \(radius) of you.", value: radius)
        case .askUnit:
            return RenderReply(dialog: "Should I give distances in miles or kilometres?")
        case .settingsRead:
            let radius = distance(request.radiusMiles ?? Preferences.defaultRadiusMiles, unit)
            return RenderReply(dialog: "I look for fuel within \(radius) of you and give distances in \(unitName(unit)).",
                               value: radius)
        case .unitSet:
            let name = unitName(unit)
            return RenderReply(dialog: "OK, I'll give distances in \(name) from now on.", value: name)
        case .unitCleared:
            let name = unitName(unit)
            return RenderReply(dialog: "OK, I'm back to giving distances in \(name).", value: name)
        case .confirmForget:
            return RenderReply(dialog: "Do you want me to forget your location and settings? Please say yes or no.")
        case .forgotten:
            return RenderReply(dialog: "Done. I've forgotten your location and settings.")
        case .notForgotten:
            return RenderReply(dialog: "OK, I'll keep your location and settings.")
        case .cancelled:
            return RenderReply(dialog: "OK, cancelled.")
        case .welcome:
            return RenderReply(dialog: "You're welcome.")
        case .help:
            return RenderReply(dialog: "You can ask me for the cheapest fuel near you, the nearest station, "
                + "directions to either, to set your search radius, to use miles or kilometres, to tell you your "
                + "settings, or to forget your location.")
        case .pricesUnavailable:
            return RenderReply(dialog: "I can't reach fuel prices right now. Please try again in a minute.")
        case .locationUnavailable:
            return RenderReply(dialog: "I can't reach your saved location right now. Please try again in a minute.")
        case .failure:
            return RenderReply(dialog: "Sorry, something went wrong. Please try again.")
        case .notUnderstood:
            return RenderReply(dialog: "Sorry, I didn't catch that. You can ask me for the cheapest fuel near "
                + "you, the nearest station, directions to either, to set your search radius, to use miles or "
                + "kilometres, or to forget your location.")
        case .settingsUnreadable:
            return RenderReply(dialog: "I can't reach your saved settings right now. Please try again in a minute.")
        case .namedPlace:
            return RenderReply(dialog: "I can only search near where you are, not in a place or at a brand you name. "
                + "Try “Ask \(appName) for the cheapest diesel near me”.")
        case .appNotNamed:
            return RenderReply(dialog: "To ask me something, start with my name: for example, "
                + "“Ask \(appName) for the cheapest diesel near me”.")
        case .sessionExpired:
            return RenderReply(dialog: "Sorry, that conversation has ended. Please ask me again from the start.")
        case .settingsUnavailable:
            return RenderReply(dialog: "I can't reach your saved settings right now, so nothing has changed. "
                + "Please try again in a minute.")
        case .settingsUnconfirmed:
            return RenderReply(dialog: "Your saved settings took too long to answer, so I can't tell whether that "
                + "changed. Ask me for your settings in a minute to check.")
        case .forgetUnconfirmed:
            return RenderReply(dialog: "Your saved location took too long to answer, so I can't tell whether it was "
                + "forgotten. Please ask me to forget it again in a minute.")
        case .outsideCoverage:
            return RenderReply(dialog: "\(appName) only has fuel prices for the UK, and you seem to be outside it.")
        }
    }

    /// What the renderer says of a cheaper price passed over because its feed lags (en-GB), with its space.
    private static func passedOverNote(_ request: RenderRequest, now: Date) -> String {
        guard let passed = request.passedOver else { return "" }
        return " \(passed.station) has a lower price, \(pricePhrase(passed.pricePence)), but that is from prices "
            + PriceAgeWords.phrase(passed.updated, now: now) + "."
    }

    /// What the renderer says after a search made with the default settings (en-GB), with its space.
    private static func defaultSettingsNote(_ request: RenderRequest) -> String {
        request.defaultSettings == true ? " I couldn't reach your saved settings just now, so I used the standard ones." : ""
    }

    /// What the renderer's `priceOutlier` notes say (en-GB); after the out-of-date note, the low
    /// one does not say "out of date" again.
    private static func outlierNote(_ outlier: PriceOutlier, stale: Bool) -> String {
        switch outlier {
        case .low where stale: "That price is also much lower than at the retailer's other stations."
        case .low: "That price is much lower than at the retailer's other stations, so it may be out of date."
        case .high: "That price is much higher than at the retailer's other stations."
        }
    }

    private static func station(_ request: RenderRequest, fuel: String, unit: DistanceUnit) -> RenderReply {
        guard let station = request.station, let pence = request.pricePence else {
            return RenderReply(dialog: "Sorry, I couldn't do that right now. Please try again in a moment.")
        }
        let price = pricePhrase(pence)
        let away = distance(request.distanceMiles ?? 0, unit)
        let now = request.now ?? Date()
        let freshness = request.updated.map { "prices " + PriceAgeWords.phrase($0, now: now) }
        let stale = request.updated.map { PriceAgeWords.isStale($0, now: now) }
        let place = PriceAgeWords.place(observedAt: request.locationAt, now: now)
        let said = (freshness.map { " — \($0)." } ?? ".") + (stale == true ? " These prices may be out of date." : "")
            + (request.priceOutlier.map { " " + outlierNote($0, stale: stale == true) } ?? "")
            + passedOverNote(request, now: now) + defaultSettingsNote(request)
        let nearest = request.outcome == .nearestFound || request.outcome == .nearestDirections
        let value = nearest ? "\(station.name): \(away), \(price)" : "\(station.name): \(price), \(away)"
        let snippet = Snippet(title: station.name, subtitle: "\(fuel.capitalizedFirst) · \(away)", freshness: freshness,
                              price: price, id: station.id, postcode: station.postcode, lat: station.lat,
                              lng: station.lng, pricePence: pence, stale: stale, priceOutlier: request.priceOutlier)
        switch request.outcome {
        case .directions:
            return RenderReply(dialog: "Here are directions to \(station.name), the cheapest \(fuel) near \(place) at "
                + "\(price)\(said)", value: value, snippet: snippet,
                opensURL: mapsURL(lat: station.lat, lng: station.lng))
        case .nearestDirections:
            return RenderReply(dialog: "Here are directions to \(station.name), the nearest station with \(fuel), "
                + "\(away) from \(place). \(fuel.capitalizedFirst) there is \(price)\(said)", value: value, snippet: snippet,
                opensURL: mapsURL(lat: station.lat, lng: station.lng))
        case .nearestFound:
            return RenderReply(dialog: "The nearest station with \(fuel) is \(station.name), \(away) from \(place), at "
                + "\(price)\(said)", value: value, snippet: snippet)
        default:
            break
        }
        return RenderReply(dialog: "The cheapest \(fuel) near \(place) is \(station.name) at \(price), "
            + "\(away) away\(said)", value: value, snippet: snippet)
    }

    /// "£1.399", as dialog-renderer writes prices.
    static func pricePhrase(_ pence: Double) -> String {
        let tenths = Int((pence * 10).rounded())
        let pounds = tenths / 1000, rest = tenths % 1000
        return "£\(pounds).\(rest < 100 ? "0" : "")\(rest < 10 ? "0" : "")\(rest)"
    }

    /// "less than 0.1 miles", "2.3 miles", "2 miles", "1 mile", "46 miles", "12 km": one decimal
    /// below 10, whole numbers from 10, no trailing ".0" (dialog-renderer's rules).
    static func distance(_ miles: Double, _ unit: DistanceUnit) -> String {
        let amount = unit == .km ? miles * Vocabulary.kilometresPerMile : miles
        let plural = unit == .km ? "km" : "miles"
        guard amount >= 0.1 else { return "less than 0.1 \(plural)" }
        let rounded = amount < 9.95 ? (amount * 10).rounded() / 10 : amount.rounded()
        let number = rounded == rounded.rounded() ? "\(Int(rounded))" : NumberWords.format(rounded)
        if rounded == 1 { return unit == .km ? "1 km" : "1 mile" }
        return "\(number) \(plural)"
    }

    private static func unitName(_ unit: DistanceUnit) -> String { unit == .km ? "kilometres" : "miles" }

    /// A driving-directions URL to a point.
    public static func mapsURL(lat: Double, lng: Double) -> String {
        let format = FloatingPointFormatStyle<Double>.number.precision(.fractionLength(0 ... 6)).grouping(.never)
            .locale(Locale(identifier: "en_US_POSIX"))
        return "https://maps.apple.com/?daddr=\(lat.formatted(format)),\(lng.formatted(format))&dirflg=d"
    }
}

private extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
