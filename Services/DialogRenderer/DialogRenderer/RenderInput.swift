import Messages

/// The checked facts of one render, read from a `RenderRequest` or straight from the wire. The
/// texts the request brings (the station's name and postcode, a word) are already in the
/// render's `TextScratch`; a fact the outcome does not use may be left out.
struct RenderInput {
    let outcome: DialogOutcome
    var fuel: FuelCode?
    /// The station's name without surrounding whitespace.
    var station: Range<Int>?
    var postcode: Range<Int>?
    var price: Price?
    /// The lookup's flag on the price: a note is said after a station answer.
    var priceOutlier: PriceOutlier?
    /// The search used the default radius and unit: a note is said after its answer.
    var defaultSettings = false
    var distanceMiles: Double?
    var age: FeedAge?
    /// How old the location the search was made from is (nil: the ask's own, said as "you").
    var place: LocationAge?
    var radiusMiles: Double?
    var unit: DistanceUnit = Preferences.default.unit
    var word: Range<Int>?
    /// A cheaper price the search passed over (its feed lags): its station's name in the scratch,
    /// the price and its feed's age. A note names it after a station answer.
    var passedOver: (station: Range<Int>, price: Price, age: FeedAge)?

    init(outcome: DialogOutcome) {
        self.outcome = outcome
    }
}

/// Where a render put its texts in the `TextScratch`.
struct RenderedText {
    /// The spoken sentence (with the out-of-date note when the prices are stale, and the outlier
    /// note for a price far from its retailer's others).
    var dialog: Range<Int>
    var value: Range<Int>?
    /// The snippet card's texts, for found and directions.
    var card: Card?

    struct Card {
        var title: Range<Int>
        var subtitle: Range<Int>
        var freshness: Range<Int>
        var price: Range<Int>
        var stale: Bool
        var priceOutlier: PriceOutlier?
    }
}

extension DialogOutcome {
    /// `facts` as one bit per `Slot`, worked out once per outcome (indexed by `index`).
    static let factSlotMasks: [UInt32] = {
        var masks = [UInt32](repeating: 0, count: allCases.count)
        for outcome in allCases {
            masks[outcome.index] = outcome.facts.reduce(0) { $0 | 1 << UInt32(Slot($1).rawValue) }
        }
        return masks
    }()
}
