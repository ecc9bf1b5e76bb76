import Foundation
import Messages

/// Normalises the fields of one accepted record into a `Station`, noting warnings under its id.
struct StationFields {
    let id: String
    let fallbackBrand: String
    private(set) var report: IssueLog

    init(id: String, fallbackBrand: String, report: IssueLog) {
        self.id = id
        self.fallbackBrand = fallbackBrand
        self.report = report
    }

    mutating func station(from raw: RawStation, retailer: String, siteId: String, updated: Date) -> Station {
        // Text that will be spoken, shown on cards and printed in terminals: control characters
        // (a terminal escape sequence goes whole), direction overrides and invisible characters
        // are taken out first (a QA feed's brand rang the bell and turned a terminal red).
        let brand = brand(Self.shown(raw.brand))
        let address = address(Self.shown(raw.address))
        let postcode = postcode(Self.shown(raw.postcode))
        let (location, latitude, longitude) = location(raw.location, siteId: siteId, postcode: postcode)
        let prices = prices(raw.prices)
        return Station(id: id, retailer: retailer, siteId: siteId, brand: brand,
                       name: StationName.make(brand: brand, address: address), address: address,
                       postcode: postcode, location: location, reportedLatitude: latitude,
                       reportedLongitude: longitude, prices: prices, updated: updated)
    }

    /// A text value as it may be shown (`SpeakableText`); other values as they are.
    private static func shown(_ value: LenientValue?) -> LenientValue? {
        guard case .string(let text)? = value else { return value }
        return .string(SpeakableText.clean(text, limit: .max))
    }

    private mutating func warn(_ kind: FeedWarning, _ detail: @autoclosure () -> String) {
        let label = id
        report.note(kind.rawValue, "\(label): \(detail())")
    }

    private mutating func brand(_ value: LenientValue?) -> String {
        if case .string(let text)? = value, let brand = BrandName.canonical(text) { return brand }
        let fallback = fallbackBrand
        warn(.missingBrand, "brand is \(value?.described ?? "absent"), using \(fallback)")
        return fallback
    }

    private mutating func address(_ value: LenientValue?) -> String {
        guard case .string(let text)? = value else {
            warn(.missingAddress, "address is \(value?.described ?? "absent")")
            return ""
        }
        var address = AddressNormaliser.normalise(text)
        if address.count > AddressNormaliser.maxLength {
            warn(.textTruncated, "address cut to \(AddressNormaliser.maxLength) characters")
            address = String(address.prefix(AddressNormaliser.maxLength))
        }
        if address.isEmpty { warn(.missingAddress, "address is empty") }
        return address
    }

    private mutating func postcode(_ value: LenientValue?) -> String {
        guard case .string(let text)? = value else {
            warn(.invalidPostcode, "postcode is \(value?.described ?? "absent")")
            return ""
        }
        let (postcode, isValid) = Postcode.normalise(text)
        if !isValid { warn(.invalidPostcode, "postcode \"\(TextClip.clip(postcode))\" is not a UK postcode") }
        return String(postcode.prefix(16))
    }

    private mutating func location(_ raw: RawLocation?, siteId: String, postcode: String)
        -> (location: Coordinate?, latitude: Double?, longitude: Double?) {
        guard case .coordinates(let rawLatitude, let rawLongitude)? = raw else {
            if case .notAnObject(let found)? = raw {
                warn(.badCoordinates, "location is \(found)")
            } else {
                warn(.badCoordinates, "no location")
            }
            return (nil, nil, nil)
        }
        let latitude = rawLatitude?.number, longitude = rawLongitude?.number
        let pair = "(\(latitude.map(TextClip.number) ?? "?"), \(longitude.map(TextClip.number) ?? "?"))"
        switch CoordinateRules.judge(latitude: latitude, longitude: longitude) {
        case .usable(let coordinate):
            return (position(coordinate, siteId: siteId, postcode: postcode), latitude, longitude)
        case .bad:
            let isZero = latitude == 0 && longitude == 0
            warn(.badCoordinates, isZero ? "coordinates are 0,0" : "coordinates \(pair) are missing or not numbers")
        case .swapped:
            warn(.swappedCoordinates, "coordinates \(pair) look swapped (latitude and longitude exchanged)")
        case .outsideUK:
            warn(.outsideUK, "coordinates \(pair) are outside the UK")
        }
        return (nil, latitude, longitude)
    }

    /// Where the station is: its coordinates, unless its site id (a geohash) lies elsewhere and the
    /// postcode sides with the site id (`SitePosition`). Any disagreement is warned.
    private mutating func position(_ coordinate: Coordinate, siteId: String, postcode: String) -> Coordinate {
        guard let cell = Geohash.decodeSiteId(siteId) else { return coordinate }
        let apart = Geohash.kilometres(cell, coordinate)
        guard apart > Geohash.mismatchKilometres else { return coordinate }
        let shown = { (kilometres: Double) in "\((kilometres * 10).rounded() / 10)" }
        if let area = SitePosition.siteIdSide(coordinate: coordinate, siteId: cell, postcode: postcode) {
            warn(.geohashMismatch, "coordinates lie \(shown(area.fromCoordinates)) km from postcode area "
                 + "\(area.letters) and the site id's geohash \(shown(area.fromSiteId)) km: the site id's position is used")
            return cell
        }
        warn(.geohashMismatch, "site id read as a geohash lies \(shown(apart)) km from the coordinates")
        return coordinate
    }

    private mutating func prices(_ raw: RawPrices?) -> FuelPrices {
        guard case .entries(let entries)? = raw else {
            if case .notAnObject(let found)? = raw {
                warn(.missingPrices, "prices is \(found)")
            } else {
                warn(.missingPrices, "no prices")
            }
            return [:]
        }
        var prices: FuelPrices = [:]
        for (key, value) in entries.sorted(by: { $0.key < $1.key }) {
            guard let fuel = FuelCode(rawValue: key) ?? FuelCode(code: key.trimmingCharacters(in: .whitespaces)) else {
                warn(.unknownFuel, "fuel \"\(TextClip.clip(key, to: 16))\" ignored")
                continue
            }
            switch PriceRules.judge(value) {
            case .price(let price):
                if prices[fuel] == nil { prices[fuel] = price }
            case .sentinel(let pence):
                warn(.sentinelPrice, "\(fuel.rawValue) \(TextClip.number(pence)) treated as no price")
            case .invalid:
                warn(.invalidPrice, "\(fuel.rawValue) is \(value.described), not a price")
            case .absent:
                break
            }
        }
        for pair in PriceRules.orderedPairs {
            if let cheaper = prices[pair.cheaper], let dearer = prices[pair.dearer], cheaper > dearer {
                warn(.priceInversion, "\(pair.cheaper.rawValue) \(cheaper) > \(pair.dearer.rawValue) \(dearer)")
            }
        }
        return prices
    }
}
