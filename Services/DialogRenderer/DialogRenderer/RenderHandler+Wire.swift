import Foundation
import Messages

/// The render of a request read straight from the wire (`WireRenderRequest`): the same checks
/// and phrases as `render(_:now:)`, written as the reply's JSON with no `RenderRequest`,
/// `RenderReply` or `String` between. It takes only requests it renders exactly as that path
/// does and declines (nil) the rest: anything it is not sure of, and every request that fails a
/// check, whose error the general path gives.
extension RenderHandler {
    /// `bytes` are the request's payload, where `body`'s ranges are.
    func renderWire(_ body: WireRenderRequest, bytes: UnsafeBufferPointer<UInt8>, now clockNow: () -> Date,
                    into scratch: inout TextScratch) -> WireReplyBody? {
        guard let outcome = body.outcome, body.hasRequiredFields else { return nil }
        let uses = DialogOutcome.factSlotMasks[outcome.index]
        func needs(_ slot: Slot) -> Bool { uses & 1 << UInt32(slot.rawValue) != 0 }
        var input = RenderInput(outcome: outcome)
        input.unit = body.unit ?? Preferences.default.unit
        input.defaultSettings = body.defaultSettings == true
        let isStationAnswer = outcome.isStationAnswer
        var station: WireStation?
        if isStationAnswer || needs(.station) || needs(.postcode) {
            guard let given = body.station, RenderFacts.isLatitude(given.lat), RenderFacts.isLongitude(given.lng),
                  let name = Self.appendTrimmedName(bytes, given.name, to: &scratch) else { return nil }
            station = given
            input.station = name
            input.postcode = scratch.phrase { $0.append(UnsafeBufferPointer(rebasing: bytes[given.postcode])) }
        }
        if needs(.fuel) || needs(.fuelTitle) {
            guard let text = body.fuel, let fuel = Self.fuelCode(UnsafeBufferPointer(rebasing: bytes[text])) else {
                return nil
            }
            input.fuel = fuel
        }
        if isStationAnswer || needs(.price) {
            guard let pence = body.pricePence, let price = RenderFacts.checkedPrice(pence: pence) else { return nil }
            input.price = price
            input.priceOutlier = body.priceOutlier
        }
        if needs(.distance) {
            guard let miles = body.distanceMiles, RenderFacts.isDistance(miles) else { return nil }
            input.distanceMiles = miles
        }
        if needs(.radius) {
            guard let miles = RenderFacts.radiusMiles(body.radiusMiles, outcome: outcome), RenderFacts.isRadius(miles)
            else { return nil }
            input.radiusMiles = miles
        }
        if needs(.word) {
            guard let word = body.word, Self.isPlainWord(UnsafeBufferPointer(rebasing: bytes[word])) else { return nil }
            input.word = scratch.phrase { $0.append(UnsafeBufferPointer(rebasing: bytes[word])) }
        }
        if isStationAnswer || needs(.freshness) || needs(.place) {
            let now = body.now ?? clockNow()
            if isStationAnswer || needs(.freshness) {
                guard let updated = body.updated else { return nil }
                input.age = FeedAge(updated: updated, now: now, clock: clock)
            }
            if needs(.place) { input.place = LocationAge(at: body.locationAt, now: now, clock: clock) }
        }
        let locale = body.locale.map { UnsafeBufferPointer(rebasing: bytes[$0]) }
        let text = catalog.texts(forUTF8: locale).jsonPhrases.render(input, into: &scratch)
        guard let station, let price = input.price, let card = text.card else {
            return WireReplyBody(text, into: &scratch)
        }
        let stationID = UnsafeBufferPointer(rebasing: bytes[station.id])
        let url = outcome.givesDirections
            ? MapsLink.appendDirections(lat: station.lat, lng: station.lng, to: &scratch) : nil
        return WireReplyBody(text, card: card, stationID: stationID, station: station, postcode: input.postcode,
                             pricePence: price.pence, opensURL: url, into: &scratch)
    }

    /// Appends the station's name without surrounding whitespace (as `trimmingWhitespace`
    /// gives it) and returns where it is; nil when the name is blank.
    static func appendTrimmedName(_ bytes: UnsafeBufferPointer<UInt8>, _ name: Range<Int>,
                                  to scratch: inout TextScratch) -> Range<Int>? {
        var start = name.lowerBound, end = name.upperBound
        func isASCIIWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
        while start < end, isASCIIWhitespace(bytes[start]) { start += 1 }
        while end > start, isASCIIWhitespace(bytes[end - 1]) { end -= 1 }
        guard start < end else { return nil }
        if bytes[start] < 0x80 && bytes[end - 1] < 0x80 {
            return scratch.phrase { $0.append(UnsafeBufferPointer(rebasing: bytes[start..<end])) }
        }
        // Whitespace beyond ASCII may stand at either end: let the text functions decide.
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[name]), as: UTF8.self)
        guard !text.isBlank else { return nil }
        return scratch.phrase { $0.append(text: text.trimmingWhitespace) }
    }

    /// `FuelCode(code:)` for ASCII text; nil for anything else (which that may still read).
    static func fuelCode(_ text: UnsafeBufferPointer<UInt8>) -> FuelCode? {
        func upper(_ index: Int) -> UInt8 {
            let byte = text[index]
            return (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) ? byte - 0x20 : byte
        }
        switch text.count {
        case 2 where upper(0) == UInt8(ascii: "E") && upper(1) == UInt8(ascii: "5"): return .e5
        case 2 where upper(0) == UInt8(ascii: "B") && upper(1) == UInt8(ascii: "7"): return .b7
        case 3 where upper(0) == UInt8(ascii: "E") && upper(1) == UInt8(ascii: "1") && upper(2) == UInt8(ascii: "0"):
            return .e10
        case 3 where upper(0) == UInt8(ascii: "S") && upper(1) == UInt8(ascii: "D") && upper(2) == UInt8(ascii: "V"):
            return .sdv
        default: return nil
        }
    }

    /// A word `RenderFacts.word()` leaves as it is: printable ASCII, no space at either end, not
    /// longer than it clips.
    static func isPlainWord(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = text.first, let last = text.last, first != 0x20, last != 0x20,
              text.count <= RenderFacts.maxWordLength else { return false }
        return text.allSatisfy { (0x20...0x7E).contains($0) }
    }
}
