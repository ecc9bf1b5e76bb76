/// A fuel grade as the CMA open-data scheme names it.
public enum FuelCode: String, Codable, Sendable, CaseIterable, Hashable, Comparable {
    /// Unleaded petrol with up to 10% ethanol.
    case e10 = "E10"
    /// Premium / super unleaded.
    case e5 = "E5"
    /// Diesel.
    case b7 = "B7"
    /// Super (premium) diesel.
    case sdv = "SDV"

    /// Parses a fuel code case-insensitively ("b7", "B7").
    public init?(code: String) {
        self.init(rawValue: code.uppercased())
    }

    /// The word people say for this fuel.
    public var spokenName: String {
        switch self {
        case .e10: "unleaded"
        case .e5: "premium unleaded"
        case .b7: "diesel"
        case .sdv: "super diesel"
        }
    }

    public static func < (lhs: FuelCode, rhs: FuelCode) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

extension FuelCode: CodingKeyRepresentable {}
