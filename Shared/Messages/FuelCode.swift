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

    /// Parses a fuel code, ignoring ASCII case ("b7", "B7"); compares bytes, so no uppercased copy
    /// is made (it is read on every lookup).
    public init?(code: String) {
        for fuel in Self.allCases where Self.equalIgnoringASCIICase(code.utf8, fuel.rawValue.utf8) {
            self = fuel
            return
        }
        return nil
    }

    private static func equalIgnoringASCIICase(_ given: String.UTF8View, _ upper: String.UTF8View) -> Bool {
        guard given.count == upper.count else { return false }
        return zip(given, upper).allSatisfy { byte, expected in
            byte == expected || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") && byte - 32 == expected)
        }
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
