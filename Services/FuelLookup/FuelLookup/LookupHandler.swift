import Foundation
import Messages

/// The request logic of fuel-lookup, free of ZeroMQ: validates a request and answers it from
/// one index version.
public struct LookupHandler: Sendable {
    /// Largest radius accepted, in miles.
    public static let maxRadiusMiles = LookupRequest.maxRadiusMiles
    /// Largest `limit` accepted.
    public static let maxLimit = LookupRequest.maxLimit
    public static let defaultRadiusMiles = 5.0

    public let holder: IndexHolder
    /// False until the replica has loaded price-ingest's state: until then an empty answer would
    /// wrongly say "nothing near you", so valid requests get `unavailable`.
    public let isReady: @Sendable () -> Bool

    public init(holder: IndexHolder, isReady: @escaping @Sendable () -> Bool = { true }) {
        self.holder = holder
        self.isReady = isReady
    }

    private func requireReady() throws(ServiceError) {
        guard isReady() else {
            throw .unavailable("prices are not ready: no snapshot from price-ingest yet, or no word ever from its publisher (--ingest-pub)")
        }
    }

    public func cheapest(_ request: LookupRequest, now: Date = Date()) throws(ServiceError) -> LookupReply {
        try cheapestAnswer(request, now: now).reply
    }

    public func nearest(_ request: LookupRequest, now: Date = Date()) throws(ServiceError) -> LookupReply {
        try nearestAnswer(request, now: now).reply
    }

    /// `cheapest` before it becomes a reply value: what the hot path writes straight to JSON.
    public func cheapestAnswer(_ request: borrowing LookupRequest, now: Date = Date()) throws(ServiceError) -> LookupAnswer {
        guard let code = request.fuel else { throw .badRequest("lookup.cheapest needs \"fuel\" (E10, E5, B7 or SDV)") }
        let fuel = try Self.fuel(code)
        let query = try Query(request, now: now)
        try requireReady()
        let current = holder.load()
        let index = current.index
        var matches = index.cheapestRanked(fuel: fuel, at: query.point, radiusMiles: query.radius,
                                           limit: query.limit, filter: query.filter)
        var passedOver: RankedMatch?
        if request.preferFresh == true, let best = matches.first {
            // Only when the cheapest is from a lagging feed: a second search, up-to-date feeds only.
            // A feed dated ahead of now (a day/month swap) is not the measure of up to date: the
            // newest counts at most an hour ahead.
            let newest = min(index.newestUpdatedSeconds, now.timeIntervalSinceReferenceDate + 3600)
            let cutoff = newest - LookupRequest.laggingFeedHours * 3600
            if index.updatedSeconds(best) < cutoff {
                // Any maxAge cut-off is older than `best`, so this one is the stricter.
                var upToDate = query.filter
                upToDate.now = Date(timeIntervalSinceReferenceDate: cutoff)
                upToDate.maxAge = 0
                let fresh = index.cheapestRanked(fuel: fuel, at: query.point, radiusMiles: query.radius,
                                                 limit: query.limit, filter: upToDate)
                if !fresh.isEmpty {
                    matches = fresh
                    passedOver = best  // named in the answer with its age, not passed over unsaid
                }
            }
        }
        return LookupAnswer(ranked: matches, passedOver: passedOver, fuel: fuel, index: index, version: current.version)
    }

    /// `nearest` before it becomes a reply value.
    public func nearestAnswer(_ request: borrowing LookupRequest, now: Date = Date()) throws(ServiceError) -> LookupAnswer {
        let fuel = try request.fuel.map { code throws(ServiceError) in try Self.fuel(code) }
        let query = try Query(request, now: now)
        try requireReady()
        let current = holder.load()
        let matches = current.index.nearestRanked(fuel: fuel, at: query.point, radiusMiles: query.radius,
                                                  limit: query.limit, filter: query.filter)
        return LookupAnswer(ranked: matches, fuel: fuel, index: current.index, version: current.version)
    }

    public func station(_ request: StationGetRequest) throws(ServiceError) -> StationGetReply {
        try requireReady()
        let index = holder.load().index
        guard let station = index.station(id: request.id) else {
            throw .notFound("no station with id '\(request.id.prefix(80))'")
        }
        var prices: [String: Double] = [:]
        for (fuel, price) in station.prices { prices[fuel.rawValue] = price.pence }
        var outliers: [String: PriceOutlier] = [:]
        for (fuel, outlier) in index.priceOutliers(id: request.id) { outliers[fuel.rawValue] = outlier }
        return StationGetReply(station: Self.summary(station), prices: prices, updated: station.updated,
                               priceOutliers: outliers.isEmpty ? nil : outliers)
    }

    /// A distance as replies give it: miles to two decimals.
    static func roundedMiles(_ miles: Double) -> Double { (miles * 100).rounded() / 100 }

    static func summary(_ station: Station) -> StationSummary {
        StationSummary(id: station.id, retailer: station.retailer, brand: station.brand, name: station.name,
                       address: station.address, postcode: station.postcode,
                       lat: station.location?.lat ?? 0, lng: station.location?.lng ?? 0)
    }

    static func fuel(_ code: String) throws(ServiceError) -> FuelCode {
        guard let fuel = FuelCode(code: code) else {
            throw .badRequest("unknown fuel '\(code.prefix(20))': use E10, E5, B7 or SDV")
        }
        return fuel
    }

    /// A validated query: point, radius, limit and filter.
    struct Query {
        let point: Coordinate
        let radius: Double
        let limit: Int
        let filter: LookupFilter

        init(_ request: borrowing LookupRequest, now: Date) throws(ServiceError) {
            guard request.lat.isFinite, (-90...90).contains(request.lat) else {
                throw .badRequest("lat must be between -90 and 90")
            }
            guard request.lng.isFinite, (-180...180).contains(request.lng) else {
                throw .badRequest("lng must be between -180 and 180")
            }
            let radius = request.radiusMiles ?? LookupHandler.defaultRadiusMiles
            guard radius.isFinite, radius > 0, radius <= LookupHandler.maxRadiusMiles else {
                throw .badRequest("radiusMiles must be more than 0 and at most \(Int(LookupHandler.maxRadiusMiles))")
            }
            let limit = request.limit ?? 1
            guard (1...LookupHandler.maxLimit).contains(limit) else {
                throw .badRequest("limit must be between 1 and \(LookupHandler.maxLimit)")
            }
            if let hours = request.maxAgeHours, !(hours.isFinite && hours > 0) {
                throw .badRequest("maxAgeHours must be a positive number of hours")
            }
            point = Coordinate(lat: request.lat, lng: request.lng)
            self.radius = radius
            self.limit = limit
            filter = LookupFilter(maxAge: request.maxAgeHours.map { $0 * 3600 }, now: now,
                                  brand: request.brand, retailer: request.retailer)
        }
    }
}

/// The result of a lookup before it is written: the matches and what the reply says about them.
public struct LookupAnswer: Sendable {
    let ranked: [RankedMatch]
    /// The cheapest match, passed over because its feed lags (`LookupReply.passedOver`).
    var passedOver: RankedMatch? = nil
    /// The fuel asked for (nil for a nearest lookup without one).
    public let fuel: FuelCode?
    /// The index that answered.
    let index: PriceIndex
    public let version: UInt64

    public var matches: [Match] { ranked.map(index.match) }
    public var indexedStations: Int { index.count }

    /// The answer as the reply value `JSONCoding` would encode.
    public var reply: LookupReply {
        let result = { (match: Match) in
            LookupResult(station: LookupHandler.summary(match.station), pricePence: match.price?.pence,
                         fuel: match.price == nil ? nil : fuel?.rawValue,
                         distanceMiles: LookupHandler.roundedMiles(match.distanceMiles),
                         updated: match.station.updated, priceOutlier: match.priceOutlier)
        }
        return LookupReply(results: matches.map(result), indexedStations: indexedStations, version: version,
                           passedOver: passedOver.map(index.match).map(result))
    }
}
