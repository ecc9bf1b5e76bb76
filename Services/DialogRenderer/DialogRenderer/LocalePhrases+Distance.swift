import Messages

/// Distances and radii as people say them aloud, in the user's unit.
extension LocalePhrases {
    static let kilometresPerMile = DistanceUnit.kilometresPerMile

    /// A distance given in miles, spoken in `unit` (see `distance(_:_:_:into:)`).
    func distance(miles: Double, _ unit: DistanceUnit, _ values: inout SlotValues,
                  into scratch: inout TextScratch) -> Range<Int> {
        distance(unit == .km ? miles * Self.kilometresPerMile : miles, unit, &values, into: &scratch)
    }

    /// An amount of `unit`: "less than 0.1 miles" below 0.1, one decimal below 10 without a
    /// trailing zero ("2.3 miles", "2 miles"), whole numbers from 10 ("46 miles"), and the
    /// singular for exactly one ("1 mile"). `amount` is finite and not negative.
    func distance(_ amount: Double, _ unit: DistanceUnit, _ values: inout SlotValues,
                  into scratch: inout TextScratch) -> Range<Int> {
        guard amount >= 0.1 else {
            values[.number] = scratch.phrase { scratch in
                scratch.append(byte: UInt8(ascii: "0"))
                _ = pool.render(decimalSeparator, into: &scratch)
                scratch.append(byte: UInt8(ascii: "1"))
            }
            return pool.render(distanceLessThan[unit.index], into: &scratch, values)
        }
        let tenths = amount < 10 ? Int((amount * 10).rounded()) : Int(amount.rounded()) * 10
        values[.number] = scratch.phrase { scratch in
            scratch.append(digitsOf: tenths / 10)
            if tenths % 10 != 0 {
                _ = pool.render(decimalSeparator, into: &scratch)
                scratch.append(digitsOf: tenths % 10)
            }
        }
        return pool.render(tenths == 10 ? distanceOne[unit.index] : distanceOther[unit.index], into: &scratch, values)
    }
}
