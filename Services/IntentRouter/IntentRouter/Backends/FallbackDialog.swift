import Foundation
import Messages

/// Built-in English for every outcome, spoken when dialog-renderer is down or slow, so the user
/// always hears something.
public enum FallbackDialog {
    public static func render(_ request: RenderRequest, appName: String) -> RenderReply {
        let fuel = request.fuel.flatMap(FuelCode.init(code:))?.spokenName ?? "fuel"
        let unit = request.unit ?? .miles
        switch request.outcome {
        case .found, .directions:
            return station(request, fuel: fuel, unit: unit)
        case .noPrices:
            return RenderReply(dialog: "I don't have any fuel prices yet. Please try again later.")
        case .noLocation:
            return RenderReply(dialog: "I don't know where you are. Share your location with \(appName) and ask again.")
        case .nothingInRange:
            let radius = distance(request.radiusMiles ?? Preferences.defaultRadiusMiles, unit)
            return RenderReply(dialog: "I couldn't find any \(fuel) within \(radius) of you.",
                               value: "None within \(radius)")
        case .askFuel:
            return RenderReply(dialog: "Which fuel: unleaded, premium, diesel or super diesel?")
        case .unsupportedFuel:
            let word = request.word.map { String($0.prefix(40)) } ?? "that"
            return RenderReply(dialog: "\(appName) doesn't have prices for \(word). "
                + "It knows unleaded, premium unleaded, diesel and super diesel.")
        case .askRadius:
            return RenderReply(dialog: "How far should I search? Say a number of miles from 1 to 50.")
        case .radiusOutOfRange:
            return RenderReply(dialog: "The search radius has to be between 1 and 50 miles.")
        case .radiusSet:
            let radius = distance(request.radiusMiles ?? Preferences.defaultRadiusMiles, unit)
            return RenderReply(dialog: "OK, I'll search within \(radius).", value: radius)
        case .radiusCleared:
            let radius = distance(Preferences.defaultRadiusMiles, unit)
            return RenderReply(dialog: "OK, your search radius is back to the default, \(radius).", value: radius)
        case .askUnit:
            return RenderReply(dialog: "Should I give distances in miles or kilometres?")
        case .unitSet:
            let name = unit == .km ? "kilometres" : "miles"
            return RenderReply(dialog: "OK, I'll give distances in \(name).", value: name)
        case .unitCleared:
            return RenderReply(dialog: "OK, I'll give distances in miles again.", value: "miles")
        case .confirmForget:
            return RenderReply(dialog: "Do you want me to forget your location?")
        case .forgotten:
            return RenderReply(dialog: "Done. I've forgotten your location.")
        case .notForgotten:
            return RenderReply(dialog: "OK, I'll keep your location.")
        case .cancelled:
            return RenderReply(dialog: "OK, cancelled.")
        case .help:
            return RenderReply(dialog: "You can ask \(appName) for the cheapest unleaded, premium, diesel or "
                + "super diesel near you, for directions to it, to set your search radius, to use miles or kilometres, "
                + "or to forget your location.")
        case .pricesUnavailable:
            return RenderReply(dialog: "I can't reach fuel prices right now. Please try again in a moment.")
        case .locationUnavailable:
            return RenderReply(dialog: "I can't reach your saved location right now. Please try again in a moment.")
        case .failure:
            return RenderReply(dialog: "Sorry, I couldn't do that right now. Please try again in a moment.")
        }
    }

    private static func station(_ request: RenderRequest, fuel: String, unit: DistanceUnit) -> RenderReply {
        guard let station = request.station, let pence = request.pricePence else {
            return RenderReply(dialog: "Sorry, I couldn't do that right now. Please try again in a moment.")
        }
        let price = pricePhrase(pence)
        let away = distance(request.distanceMiles ?? 0, unit)
        let value = "\(station.name): \(price), \(away)"
        let snippet = Snippet(title: station.name, subtitle: "\(fuel.capitalizedFirst) · \(away)",
                              freshness: request.updated.map { freshness($0, now: request.now ?? Date()) },
                              price: price, id: station.id, postcode: station.postcode, lat: station.lat,
                              lng: station.lng, pricePence: pence,
                              stale: request.updated.map { (request.now ?? Date()).timeIntervalSince($0) > 48 * 3600 })
        if request.outcome == .directions {
            return RenderReply(dialog: "Here are directions to \(station.name), the cheapest \(fuel) near you at "
                + "\(price) a litre, \(away) away.", value: value, snippet: snippet,
                opensURL: mapsURL(lat: station.lat, lng: station.lng))
        }
        return RenderReply(dialog: "The cheapest \(fuel) near you is \(price) a litre at \(station.name), "
                           + "\(away) away.", value: value, snippet: snippet)
    }

    /// "139.9p"
    static func pricePhrase(_ pence: Double) -> String {
        Price(pence: pence)?.description.appending("p") ?? "\(pence)p"
    }

    /// "2.3 miles", "1 mile", "3.7 kilometres"
    static func distance(_ miles: Double, _ unit: DistanceUnit) -> String {
        let amount = unit == .km ? miles * Vocabulary.kilometresPerMile : miles
        let rounded = (amount * 10).rounded() / 10
        let number = NumberWords.format(rounded)
        switch unit {
        case .km: return "\(number) \(rounded == 1 ? "kilometre" : "kilometres")"
        case .miles: return "\(number) \(rounded == 1 ? "mile" : "miles")"
        }
    }

    /// "prices updated 3 hours ago"
    static func freshness(_ updated: Date, now: Date) -> String {
        let hours = max(0, Int(now.timeIntervalSince(updated) / 3600))
        switch hours {
        case 0: return "prices updated within the hour"
        case 1: return "prices updated 1 hour ago"
        case 2 ..< 48: return "prices updated \(hours) hours ago"
        default: return "prices updated \(hours / 24) days ago"
        }
    }

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
