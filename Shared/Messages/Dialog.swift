import Foundation

/// Every outcome the assistant can speak; dialog-renderer has a template for each.
public enum DialogOutcome: String, Codable, Sendable, CaseIterable {
    /// The cheapest station was found.
    case found
    /// Directions to the cheapest station (same lookup, answered with a maps URL).
    case directions
    /// No price data has been loaded at all.
    case noPrices
    /// The user's location is unknown (or expired).
    case noLocation
    /// Nothing sells the fuel within the user's radius.
    case nothingInRange
    /// Which fuel? (a missing value asked for)
    case askFuel
    /// A fuel FuelBoard has no prices for ("hydrogen").
    case unsupportedFuel
    /// How far? (SetSearchRadius without a value)
    case askRadius
    /// A radius outside 1...50 miles.
    case radiusOutOfRange
    case radiusSet
    case radiusCleared
    /// Miles or kilometres? (SetDistanceUnit without a value)
    case askUnit
    case unitSet
    case unitCleared
    /// "Do you want me to forget your location?"
    case confirmForget
    case forgotten
    /// The user said no to forgetting: the location and settings are kept.
    case notForgotten
    case cancelled
    /// The utterance was not understood: say what can be asked.
    case help
    /// A backend is down or slow.
    case pricesUnavailable
    case locationUnavailable
    /// Anything else that went wrong.
    case failure
    /// The utterance was not understood: say so, then what can be asked.
    case notUnderstood
    /// The user is outside the area FuelBoard has prices for (the UK).
    case outsideCoverage
    /// A setting (radius, unit) could not be changed: location-cache is down or slow.
    case settingsUnavailable
    /// An answer in a session that has ended (timed out, cancelled, or not this user's): to a
    /// question, or a follow-up of an answer ("take me there" a minute later).
    case sessionExpired
    /// The nearest station selling the fuel was found.
    case nearestFound
    /// Directions to the nearest station selling the fuel.
    case nearestDirections
    /// Thanks said ("Thanks FuelBoard"): "You're welcome."
    case welcome
    /// The user's settings read back ("what's my search radius?").
    case settingsRead
    /// A request that did not name the app ("cheapest diesel near me"): every phrase starts a
    /// conversation with the app's name, so say how to ask.
    case appNotNamed
    /// A station search with a place named ("the cheapest diesel in Leeds", "... at Tesco"): the
    /// search is only ever near the user.
    case namedPlace
    /// The settings could not be read back ("what's my search radius?" with location-cache down).
    case settingsUnreadable
    /// A setting was sent to location-cache but no answer came in time: it may or may not have
    /// changed, so the user is not told "nothing has changed".
    case settingsUnconfirmed
    /// "Forget my location" was sent but no answer came in time: it may or may not be forgotten.
    case forgetUnconfirmed
}

extension DialogOutcome {
    /// The outcomes of a search that found a station or none in range: what the user's radius and
    /// unit shaped, so what says when they were the defaults (`RenderRequest.defaultSettings`).
    public var speaksOfTheSearch: Bool { isStationAnswer || self == .nothingInRange }

    /// The outcomes that speak of a station, with its price, and show its card.
    public var isStationAnswer: Bool {
        self == .found || self == .directions || self == .nearestFound || self == .nearestDirections
    }

    /// The outcomes that open a maps URL to the station.
    public var givesDirections: Bool { self == .directions || self == .nearestDirections }
}

/// `dialog.render` request body: an outcome and the facts it needs.
public struct RenderRequest: Codable, Sendable, Equatable {
    public var outcome: DialogOutcome
    /// BCP 47 locale; default en-GB (unknown locales fall back to it).
    public var locale: String?
    /// Render as if it were this time (freshness labels); default now.
    public var now: Date?
    /// CMA fuel code of the question.
    public var fuel: String?
    public var station: StationSummary?
    public var pricePence: Double?
    /// The lookup's flag on that price (`PriceOutlier`): the answer says a low one may be out of date.
    public var priceOutlier: PriceOutlier?
    public var distanceMiles: Double?
    /// Time of the feed the price came from.
    public var updated: Date?
    /// When the user's location was observed, when the search used a stored one rather than one
    /// the ask carried (an answer from a location over an hour old says where it was from).
    public var locationAt: Date?
    /// The user's search radius in miles.
    public var radiusMiles: Double?
    public var unit: DistanceUnit?
    /// A word to quote back ("hydrogen" for unsupportedFuel).
    public var word: String?
    /// True when a search used the default radius and unit because the user's saved ones could not
    /// be read (location-cache down or slow): the answer says so.
    public var defaultSettings: Bool?
    /// A cheaper price in range that the answer passed over because its feed lags the others
    /// (`LookupReply.passedOver`): the answer names it and its age.
    public var passedOver: PassedOverPrice?

    public init(outcome: DialogOutcome, locale: String? = nil, now: Date? = nil, fuel: String? = nil,
                station: StationSummary? = nil, pricePence: Double? = nil, distanceMiles: Double? = nil,
                updated: Date? = nil, radiusMiles: Double? = nil, unit: DistanceUnit? = nil, word: String? = nil,
                locationAt: Date? = nil, priceOutlier: PriceOutlier? = nil) {
        self.outcome = outcome
        self.locale = locale
        self.now = now
        self.fuel = fuel
        self.station = station
        self.pricePence = pricePence
        self.distanceMiles = distanceMiles
        self.updated = updated
        self.radiusMiles = radiusMiles
        self.unit = unit
        self.word = word
        self.locationAt = locationAt
        self.priceOutlier = priceOutlier
    }
}

/// A cheaper price an answer passed over: its station's name, the price and its feed's time.
public struct PassedOverPrice: Codable, Sendable, Equatable {
    public var station: String
    public var pricePence: Double
    public var updated: Date

    public init(station: String, pricePence: Double, updated: Date) {
        self.station = station
        self.pricePence = pricePence
        self.updated = updated
    }
}

/// A snippet card: display strings plus, for a station, the data behind them.
public struct Snippet: Codable, Sendable, Equatable {
    /// "Tesco Selby"
    public var title: String
    /// "Diesel · 2.3 miles"
    public var subtitle: String?
    /// "prices as of 6:30 AM"
    public var freshness: String?
    /// "£1.399"
    public var price: String?
    public var id: String?
    public var postcode: String?
    public var lat: Double?
    public var lng: Double?
    public var pricePence: Double?
    /// True when the prices are older than 48 hours.
    public var stale: Bool?
    /// Present when the price is far from the rest of its retailer's feed (`PriceOutlier`).
    public var priceOutlier: PriceOutlier?

    public init(title: String, subtitle: String? = nil, freshness: String? = nil, price: String? = nil,
                id: String? = nil, postcode: String? = nil, lat: Double? = nil, lng: Double? = nil,
                pricePence: Double? = nil, stale: Bool? = nil, priceOutlier: PriceOutlier? = nil) {
        self.title = title
        self.subtitle = subtitle
        self.freshness = freshness
        self.price = price
        self.id = id
        self.postcode = postcode
        self.lat = lat
        self.lng = lng
        self.pricePence = pricePence
        self.stale = stale
        self.priceOutlier = priceOutlier
    }
}

/// `dialog.render` reply body.
public struct RenderReply: Codable, Sendable, Equatable {
    /// What is spoken.
    public var dialog: String
    /// The short answer ("Tesco Selby: £1.399, 2.3 miles").
    public var value: String?
    public var snippet: Snippet?
    /// Maps directions URL (directions only).
    public var opensURL: String?

    public init(dialog: String, value: String? = nil, snippet: Snippet? = nil, opensURL: String? = nil) {
        self.dialog = dialog
        self.value = value
        self.snippet = snippet
        self.opensURL = opensURL
    }
}
