import Foundation
import Messages

/// A render request's facts, checked: each accessor validates its field when an outcome uses
/// it, so a field an outcome ignores (a huge radius with `radiusOutOfRange`) cannot fail it.
struct RenderFacts {
    let request: RenderRequest

    /// Longest word quoted back to the user.
    static let maxWordLength = 60
    /// Largest distance or radius accepted, in miles (half way round the Earth).
    static let maxMiles = 12_500.0

    /// Checks that every field the outcome needs is present, naming all that are missing.
    init(_ request: RenderRequest) throws(ServiceError) {
        self.request = request
        let missing = request.outcome.requiredFields.filter { !Self.isPresent($0, in: request) }
        if !missing.isEmpty {
            let fields = missing.map { "\"\($0)\"" }.joined(separator: ", ")
            throw .badRequest("outcome \(request.outcome.rawValue) needs \(fields)")
        }
    }

    private static func isPresent(_ field: String, in request: RenderRequest) -> Bool {
        switch field {
        case "station": request.station != nil
        case "fuel": request.fuel != nil
        case "pricePence": request.pricePence != nil
        case "distanceMiles": request.distanceMiles != nil
        case "updated": request.updated != nil
        case "radiusMiles": request.radiusMiles != nil
        case "unit": request.unit != nil
        case "word": request.word != nil
        default: false
        }
    }

    func station() throws(ServiceError) -> StationSummary {
        guard let station = request.station else { throw missing("station") }
        guard !station.name.isBlank else {
            throw .badRequest("station.name is empty")
        }
        guard Self.isLatitude(station.lat) else {
            throw .badRequest("station.lat must be between -90 and 90")
        }
        guard Self.isLongitude(station.lng) else {
            throw .badRequest("station.lng must be between -180 and 180")
        }
        return station
    }

    func fuel() throws(ServiceError) -> FuelCode {
        guard let code = request.fuel else { throw missing("fuel") }
        guard let fuel = FuelCode(code: code) else {
            throw .badRequest("fuel '\(code.prefix(20))' is not a fuel code: use E10, E5, B7 or SDV")
        }
        return fuel
    }

    func price() throws(ServiceError) -> Price {
        guard let pence = request.pricePence else { throw missing("pricePence") }
        guard let price = Self.checkedPrice(pence: pence) else {
            throw .badRequest("pricePence must be a positive number of pence per litre below 10000")
        }
        return price
    }

    func distanceMiles() throws(ServiceError) -> Double {
        guard let miles = request.distanceMiles else { throw missing("distanceMiles") }
        guard Self.isDistance(miles) else {
            throw .badRequest("distanceMiles must be between 0 and \(Int(Self.maxMiles))")
        }
        return miles
    }

    func updated() throws(ServiceError) -> Date {
        guard let updated = request.updated else { throw missing("updated") }
        return updated
    }

    /// The radius; `radiusCleared` without one means the default radius.
    func radiusMiles() throws(ServiceError) -> Double {
        guard let miles = Self.radiusMiles(request.radiusMiles, outcome: request.outcome) else {
            throw missing("radiusMiles")
        }
        guard Self.isRadius(miles) else {
            throw .badRequest("radiusMiles must be more than 0 and at most \(Int(Self.maxMiles))")
        }
        return miles
    }

    /// The user's unit; miles when not given.
    var unit: DistanceUnit { request.unit ?? Preferences.default.unit }

    /// The word to quote: trimmed, one line, at most `maxWordLength` characters.
    func word() throws(ServiceError) -> String {
        guard let raw = request.word else { throw missing("word") }
        let flat = raw.unicodeScalars.map { CharacterSet.controlCharacters.contains($0) ? " " : String($0) }.joined()
        let word = String(flat.trimmingCharacters(in: .whitespacesAndNewlines).prefix(Self.maxWordLength))
        guard !word.isEmpty else { throw .badRequest("word is empty") }
        return word
    }

    // The checks on values, shared with the reading of requests straight from the wire.
    static func isLatitude(_ lat: Double) -> Bool { lat.isFinite && (-90...90).contains(lat) }
    static func isLongitude(_ lng: Double) -> Bool { lng.isFinite && (-180...180).contains(lng) }
    static func isDistance(_ miles: Double) -> Bool { miles.isFinite && (0...maxMiles).contains(miles) }
    static func isRadius(_ miles: Double) -> Bool { miles.isFinite && miles > 0 && miles <= maxMiles }

    /// A price of more than 0 and less than 10000 pence per litre, rounded to tenths of a penny.
    static func checkedPrice(pence: Double) -> Price? {
        guard let price = Price(pence: pence), price.tenths > 0, price.tenths < 100_000 else { return nil }
        return price
    }

    /// The radius an outcome speaks of: the request's, or the default after a reset.
    static func radiusMiles(_ requested: Double?, outcome: DialogOutcome) -> Double? {
        requested ?? (outcome == .radiusCleared ? Preferences.defaultRadiusMiles : nil)
    }

    private func missing(_ field: String) -> ServiceError {
        .badRequest("outcome \(request.outcome.rawValue) needs \"\(field)\"")
    }
}
