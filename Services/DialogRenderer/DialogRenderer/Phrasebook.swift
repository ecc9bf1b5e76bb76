import Foundation
import Messages

/// Turns numbers, units and times into one locale's words: "£1.399", "2.3 miles", "as of 6:30 AM".
struct Phrasebook {
    let texts: LocaleTexts

    /// Pence per litre as pounds with three decimals: 1399 tenths of a penny -> "£1.399".
    func price(_ price: Price) -> String {
        let tenths = Int(price.tenths)
        let fraction = String(tenths % 1000)
        let pounds = "\(tenths / 1000)" + separator + String(repeating: "0", count: 3 - fraction.count) + fraction
        return texts.text(TemplateKeys.price, ["pounds": pounds])
    }

    /// A distance with one decimal in the user's unit; exactly one unit uses the singular
    /// ("1 mile"). Kilometres are miles x 1.609344.
    func distance(miles: Double, unit: DistanceUnit) -> String {
        amount(miles: miles, unit: unit, trimWholeNumbers: false)
    }

    /// A search radius: like a distance, but whole numbers without ".0" ("5 miles", "8 km").
    func radius(miles: Double, unit: DistanceUnit) -> String {
        amount(miles: miles, unit: unit, trimWholeNumbers: true)
    }

    /// "miles" / "kilometres".
    func unitName(_ unit: DistanceUnit) -> String {
        texts.text(TemplateKeys.unitName(unit))
    }

    func spokenFuel(_ fuel: FuelCode) -> String { texts.text(TemplateKeys.spokenFuel(fuel)) }
    func fuelTitle(_ fuel: FuelCode) -> String { texts.text(TemplateKeys.fuelTitle(fuel)) }

    /// "as of 6:30 AM", "as of yesterday at 6:30 PM", "as of 3 Oct at 11:00 AM".
    func freshness(_ age: FeedAge) -> String {
        let time = clockTime(hour: age.hour, minute: age.minute)
        switch age.day {
        case .today:
            return texts.text(TemplateKeys.freshnessToday, ["time": time])
        case .yesterday:
            return texts.text(TemplateKeys.freshnessYesterday, ["time": time])
        case .earlier(let day, let month, let year, let showYear):
            let values: TemplateValues = ["day": "\(day)", "month": texts.text(TemplateKeys.month(month)), "year": "\(year)"]
            let date = texts.text(showYear ? TemplateKeys.dateWithYear : TemplateKeys.date, values)
            return texts.text(TemplateKeys.freshnessOlder, ["date": date, "time": time])
        }
    }

    /// "These prices may be out of date."
    var staleNote: String { texts.text(TemplateKeys.staleNote) }

    /// "6:30 AM": 12-hour clock without a leading zero, or whatever the locale's `clock.time` says.
    func clockTime(hour: Int, minute: Int) -> String {
        let hour12 = hour % 12 == 0 ? 12 : hour % 12
        return texts.text(TemplateKeys.time, [
            "hour12": "\(hour12)",
            "hour24": hour < 10 ? "0\(hour)" : "\(hour)",
            "minute": minute < 10 ? "0\(minute)" : "\(minute)",
            "ampm": texts.text(hour < 12 ? TemplateKeys.amMarker : TemplateKeys.pmMarker),
        ])
    }

    private var separator: String { texts.text(TemplateKeys.decimalSeparator) }

    private func amount(miles: Double, unit: DistanceUnit, trimWholeNumbers: Bool) -> String {
        let value = unit == .km ? miles * Self.kilometresPerMile : miles
        let tenths = Int((value * 10).rounded())
        let number = trimWholeNumbers && tenths % 10 == 0
            ? "\(tenths / 10)"
            : "\(tenths / 10)" + separator + "\(tenths % 10)"
        if tenths == 10 {
            return texts.text(TemplateKeys.distanceOne(unit), ["number": "1"])
        }
        return texts.text(TemplateKeys.distanceOther(unit), ["number": number])
    }

    static let kilometresPerMile = 1.609344
}
