import Messages

/// A search radius as the user gave it: an amount and the unit said with it, or no unit for a
/// bare number ("set my search radius to 10"), which means the user's own unit.
public struct SpokenRadius: Codable, Sendable, Equatable {
    public var amount: Double
    /// The unit said ("10 km", "10 miles"); nil when none was.
    public var unit: DistanceUnit?

    public init(_ amount: Double, _ unit: DistanceUnit?) {
        self.amount = amount
        self.unit = unit
    }

    public static func miles(_ amount: Double) -> SpokenRadius { SpokenRadius(amount, .miles) }
    public static func km(_ amount: Double) -> SpokenRadius { SpokenRadius(amount, .km) }
    /// A bare number, in whatever unit the user has chosen.
    public static func bare(_ amount: Double) -> SpokenRadius { SpokenRadius(amount, nil) }

    /// The unit the amount is in: the one said, else `usersUnit`.
    public func unit(or usersUnit: DistanceUnit) -> DistanceUnit { unit ?? usersUnit }

    /// The radius in miles, unrounded, reading a bare number in `usersUnit`: what a search
    /// reaches and what is stored ("3 km" is 3 km to the metre; rounded to a hundredth of a mile
    /// it was 1.86 miles, 2.993 km, and a station 5 m inside it was "nothing within 3 km").
    public func miles(usersUnit: DistanceUnit) -> Double {
        unit(or: usersUnit) == .km ? amount / Vocabulary.kilometresPerMile : amount
    }

    /// Miles as a reply's parameters show them: to a hundredth (10 km is 6.21).
    public static func shown(_ miles: Double) -> Double {
        (miles * 100).rounded() / 100
    }

    /// The radius in miles when the unit was said; nil for a bare number.
    public var explicitMiles: Double? {
        unit.map { miles(usersUnit: $0) }
    }
}
