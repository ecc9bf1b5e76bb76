import Foundation

/// `lookup.cheapest` / `lookup.nearest` request body (contract v1, plus optional filters).
public struct LookupRequest: Codable, Sendable {
    /// CMA fuel code (`E10`, `E5`, `B7`, `SDV`); required for cheapest, optional for nearest.
    public var fuel: String?
    public var lat: Double
    public var lng: Double
    /// Search radius in miles (default 5, at most `maxRadiusMiles`).
    public var radiusMiles: Double?
    /// How many results (default 1, at most `maxLimit`).
    public var limit: Int?

    /// The largest radius fuel-lookup accepts, in miles: clients can refuse more themselves.
    public static let maxRadiusMiles = 100.0
    /// The most results fuel-lookup gives for one request.
    public static let maxLimit = 50
    /// Only prices from feeds updated within this many hours.
    public var maxAgeHours: Double?
    /// Only this forecourt brand (case-insensitive).
    public var brand: String?
    /// Only this retailer's feed (slug, case-insensitive).
    public var retailer: String?
    /// Cheapest only: when the cheapest price comes from a feed more than `laggingFeedHours` older
    /// than the newest feed fuel-lookup holds (a feed that stopped updating), answer the cheapest
    /// of the up-to-date feeds' prices instead, if one is in range; else the old one as usual.
    public var preferFresh: Bool?

    /// How far behind the newest feed a feed may be before `preferFresh` passes over its prices.
    public static let laggingFeedHours = 48.0

    /// Inlinable: fuel-lookup's hot path builds one per request.
    @inlinable
    public init(fuel: String?, lat: Double, lng: Double, radiusMiles: Double? = nil, limit: Int? = nil,
                maxAgeHours: Double? = nil, brand: String? = nil, retailer: String? = nil, preferFresh: Bool? = nil) {
        self.fuel = fuel
        self.lat = lat
        self.lng = lng
        self.radiusMiles = radiusMiles
        self.limit = limit
        self.maxAgeHours = maxAgeHours
        self.brand = brand
        self.retailer = retailer
        self.preferFresh = preferFresh
    }
}

/// A station as answers show it.
public struct StationSummary: Codable, Sendable, Hashable {
    public var id: String
    public var retailer: String
    public var brand: String
    public var name: String
    public var address: String
    public var postcode: String
    public var lat: Double
    public var lng: Double

    public init(id: String, retailer: String, brand: String, name: String, address: String, postcode: String,
                lat: Double, lng: Double) {
        self.id = id
        self.retailer = retailer
        self.brand = brand
        self.name = name
        self.address = address
        self.postcode = postcode
        self.lat = lat
        self.lng = lng
    }
}

/// One answer row: the station, its price for the asked fuel, distance and the feed's time.
public struct LookupResult: Codable, Sendable, Hashable {
    public var station: StationSummary
    /// Pence per litre, one decimal (absent for a nearest lookup without a fuel).
    public var pricePence: Double?
    public var fuel: String?
    public var distanceMiles: Double
    /// The time of the feed the price came from.
    public var updated: Date
    /// Present when the price is far from the rest of its retailer's feed (`PriceOutlier`): a
    /// `low` one may be a price the retailer stopped updating.
    public var priceOutlier: PriceOutlier?

    public init(station: StationSummary, pricePence: Double?, fuel: String?, distanceMiles: Double, updated: Date,
                priceOutlier: PriceOutlier? = nil) {
        self.station = station
        self.pricePence = pricePence
        self.fuel = fuel
        self.distanceMiles = distanceMiles
        self.updated = updated
        self.priceOutlier = priceOutlier
    }
}

/// `lookup.cheapest` / `lookup.nearest` reply body.
public struct LookupReply: Codable, Sendable {
    public var results: [LookupResult]
    /// How many stations the answering replica holds: 0 means "no price data at all", which an
    /// assistant says differently from "nothing in range".
    public var indexedStations: Int
    /// The price-ingest version the answer was computed from.
    public var version: UInt64
    /// With `preferFresh`: the cheapest price in range, when it was passed over because its feed
    /// lags the others (the results are the up-to-date feeds'), so the answer can name it.
    public var passedOver: LookupResult?

    public init(results: [LookupResult], indexedStations: Int, version: UInt64, passedOver: LookupResult? = nil) {
        self.results = results
        self.indexedStations = indexedStations
        self.version = version
        self.passedOver = passedOver
    }
}

/// `station.get` request body.
public struct StationGetRequest: Codable, Sendable {
    public var id: String
    public init(id: String) { self.id = id }
}

/// `station.get` reply body: the station with every price it has.
public struct StationGetReply: Codable, Sendable {
    public var station: StationSummary
    /// Pence per litre by fuel code.
    public var prices: [String: Double]
    public var updated: Date
    /// The fuels whose price is far from the rest of the retailer's feed (`PriceOutlier`), by fuel
    /// code; absent when none is.
    public var priceOutliers: [String: PriceOutlier]?

    public init(station: StationSummary, prices: [String: Double], updated: Date,
                priceOutliers: [String: PriceOutlier]? = nil) {
        self.station = station
        self.prices = prices
        self.updated = updated
        self.priceOutliers = priceOutliers
    }
}
