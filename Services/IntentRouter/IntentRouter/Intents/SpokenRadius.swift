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

    /// The radius in miles (kilometres rounded to a hundredth of a mile, close enough that the
    /// radius reads back as said: 2 km is 1.24 miles, "2 km"; a tenth made it 1.2, "1.9 km"),
    /// reading a bare number in `usersUnit`.
    public func miles(usersUnit: DistanceUnit) -> Double {
        guard unit(or: usersUnit) == .km else { return amount }
        return (amount / Vocabulary.kilometresPerMile * 100).rounded() / 100
    }

    /// The radius in miles, unrounded: what a search reaches ("within 3 km" is 3 km to the metre;
    /// `miles(usersUnit:)`'s hundredth of a mile made it 2.993 km).
    public func exactMiles(usersUnit: DistanceUnit) -> Double {
        unit(or: usersUnit) == .km ? amount / Vocabulary.kilometresPerMile : amount
    }

    /// The radius in miles when the unit was said; nil for a bare number.
    public var explicitMiles: Double? {
        unit.map { miles(usersUnit: $0) }
    }
}
