/// A pump price held as integer tenths of a penny per litre (139.9p is 1399).
///
/// Prices never travel as `Double` inside the system; the wire shows pence with one decimal.
public struct Price: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Tenths of a penny per litre.
    public var tenths: Int32

    public init(tenths: Int32) { self.tenths = tenths }

    /// Rounds a pence value (possibly with float noise such as 151.89999999999998) to 0.1p.
    public init?(pence: Double) {
        guard pence.isFinite, abs(pence) < 1_000_000 else { return nil }
        self.tenths = Int32((pence * 10).rounded())
    }

    /// Pence per litre, as the wire carries it (one decimal).
    public var pence: Double { Double(tenths) / 10 }

    public var description: String {
        let whole = tenths / 10, frac = abs(tenths % 10)
        return "\(whole).\(frac)"
    }

    public static func < (lhs: Price, rhs: Price) -> Bool { lhs.tenths < rhs.tenths }

    public init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer().decode(Double.self)
        guard let price = Price(pence: value) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "price out of range"))
        }
        self = price
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(pence)
    }
}
