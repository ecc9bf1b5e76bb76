import Messages

/// A forecourt brand as a feed writes it (`verbatim`) and as a normaliser would show it (`canonical`).
struct BrandChoice: Sendable {
    let verbatim: String
    let canonical: String
    let weight: Double

    init(_ verbatim: String, _ canonical: String, _ weight: Double) {
        self.verbatim = verbatim
        self.canonical = canonical
        self.weight = weight
    }

    /// A brand the feed already writes in its normal form.
    init(_ verbatim: String, _ weight: Double) {
        self.init(verbatim, verbatim, weight)
    }
}

/// How a retailer writes addresses (each mirrors a real feed).
enum AddressStyle: Sendable {
    /// `Riverside Retail Park, Aberdare` (Asda, Morrisons, Sainsbury's).
    case streetTown
    /// `Main Road, Lydney, Gloucestershire` (SGN).
    case streetTownCounty
    /// `Tesco Express Doncaster Road Brayton Selby`: no commas.
    case tescoNoCommas
    /// `MFG Alton, Butts Road, Alton`.
    case groupPrefixed(String)
    /// `104 BRADFORD STREET, BOLTON` (Esso).
    case upperStreetTown
    /// `CARWIN RISE` (Shell).
    case upperStreetOnly
    /// `West Hill` (BP).
    case streetOnly
    /// `DONCASTER ROAD, SELBY, YO8 9EG` (Rontec).
    case upperWithPostcode
    /// `Doncaster Road, Selby.` (Ascona).
    case trailingFullStop
    /// `Birch Service Area, M62 Motorway, Heywood, Lancashire, OL10 2QH` (Moto).
    case serviceArea

    /// True when the style already writes addresses in capitals.
    var isUpperCase: Bool {
        switch self {
        case .upperStreetTown, .upperStreetOnly, .upperWithPostcode: true
        default: false
        }
    }
}

/// The order a feed writes keys in (JSON parsers must go by name; these mirror real feeds).
enum KeyOrder: Sendable {
    /// `last_updated, stations`; `site_id, brand, address, postcode, location, prices`; latitude first.
    case standard
    /// As standard but `longitude` before `latitude` (Morrisons).
    case longitudeFirst
    /// `stations` before `last_updated`; `location, prices, site_id, postcode, address, brand`;
    /// longitude first (Rontec).
    case reversed
}

/// Where a retailer's sites are: in towns, in the countryside or at motorway services.
struct PlacementMix: Sendable {
    let town: Double
    let rural: Double
    let motorway: Double
}

/// Chance that a site sells each fuel.
struct FuelOdds: Sendable {
    let e10: Double
    let e5: Double
    let b7: Double
    let sdv: Double

    func chance(of fuel: FuelCode) -> Double {
        switch fuel {
        case .e10: e10
        case .e5: e5
        case .b7: b7
        case .sdv: sdv
        }
    }
}

/// Everything that makes one retailer's feed look like that retailer's.
struct RetailerProfile: Sendable {
    /// File and retailer name: `asda`, `esso-tesco-alliance`, `group-007`.
    var slug: String
    /// Weight in the national mix (roughly its real station count).
    var weight: Int
    var isSupermarket: Bool
    var brands: [BrandChoice]
    var fuels: FuelOdds
    /// True when a site may sell none of the four fuels (JET had a station with `"prices": {}`).
    var allowsNoFuel: Bool
    /// Added to the national E10 price, in tenths of a penny (supermarkets negative).
    var priceOffsetTenths: Int
    var placement: PlacementMix
    var addressStyle: AddressStyle
    var keyOrder: KeyOrder
    /// Order of the price keys inside `prices`.
    var priceOrder: [FuelCode]
    /// Decimal places of coordinates (one is picked per site).
    var coordinateDecimals: ClosedRange<Int>
    var schedule: PublishSchedule
}
