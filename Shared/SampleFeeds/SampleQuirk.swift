/// A defect seen in the real CMA feeds, which the generator can plant on purpose.
public enum SampleQuirk: String, Sendable, CaseIterable, Hashable {
    /// A price of `0` or `999.9` meaning "no price".
    case sentinelPrice
    /// `"latitude": 0, "longitude": 0` and site id `7zzzzzzzzzzz` (as in the MFG feed).
    case zeroCoordinates
    /// Coordinates written as strings: `"latitude": "51.607075"` (as in the Morrisons feed).
    case stringCoordinates
    /// A site id with leading spaces: `"  gcny1efvebv0"` (as in the SGN feed).
    case paddedSiteId
    /// A postcode without its space: `GL542EP`.
    case unspacedPostcode
    /// A postcode in lower case: `hr9 6dw`.
    case lowercasePostcode
    /// An address in capitals in a feed that otherwise writes mixed case.
    case upperCaseAddress
    /// The previous station's site id and postcode reused by a second site nearby (as in the Asda feed).
    case duplicateSiteId
    /// A U+00A0 no-break space inside the address (as in the Karan feed).
    case noBreakSpaceInAddress
    /// The brand with a trailing space, changed case, or empty (`Esso `, `Bp`, `""`).
    case brandVariant
    /// A price with binary float noise: `151.89999999999998`.
    case floatNoisePrice
}

/// How a record writes its coordinates.
enum CoordinateForm: Sendable {
    case number, string, zero
}

/// How a record writes one price.
enum PriceValue: Sendable {
    /// Tenths of a penny, written with one decimal (or none when whole).
    case tenths(Int32)
    /// A price written with float noise (the value is within 1e-12 of `tenths`).
    case noisy(Int32, Double)

    /// The value in tenths (the sentinel value itself for sentinels).
    var tenths: Int32 {
        switch self {
        case .tenths(let value), .noisy(let value, _): value
        }
    }
}
