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

    /// Parses a fuel code, ignoring ASCII case ("b7", "B7"). Compares bytes: no uppercased copy
    /// and no string switch (it is read on every lookup).
    public init?(code: String) {
        var text = code
        guard let fuel = text.withUTF8(Self.parse) else { return nil }
        self = fuel
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> FuelCode? {
        func upper(_ position: Int) -> UInt8 {
            let byte = bytes[position]
            return byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") ? byte - 32 : byte
        }
        switch bytes.count {
        case 2 where upper(0) == UInt8(ascii: "E") && bytes[1] == UInt8(ascii: "5"): return .e5
        case 2 where upper(0) == UInt8(ascii: "B") && bytes[1] == UInt8(ascii: "7"): return .b7
        case 3 where upper(0) == UInt8(ascii: "E") && bytes[1] == UInt8(ascii: "1") && bytes[2] == UInt8(ascii: "0"):
            return .e10
        case 3 where upper(0) == UInt8(ascii: "S") && upper(1) == UInt8(ascii: "D") && upper(2) == UInt8(ascii: "V"):
            return .sdv
        default: return nil
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
        lhs.slot < rhs.slot
    }
}

extension FuelCode: CodingKeyRepresentable {}
