/// A station's prices, at most one per fuel, held inline: four `Int32` slots and a byte saying
/// which are set (17 bytes, no allocation).
///
/// It replaced a `[FuelCode: Price]` dictionary, which cost each station a heap object of about
/// 100 bytes: 100 MiB of fuel-lookup's resident memory with a million stations. It reads like
/// that dictionary (`prices[.b7]`, `for (fuel, price) in prices`, `[.e10: Price(...)]`), visits
/// fuels in `FuelCode.allCases` order, and is coded as the same JSON object (`{"B7": 139.9}`).
public struct FuelPrices: Sendable, Hashable {
    /// Tenths of a penny per fuel slot (`FuelCode.slot`); 0 in a slot that is not set, so that
    /// equal sets of prices are equal values.
    private var e10: Int32 = 0, e5: Int32 = 0, b7: Int32 = 0, sdv: Int32 = 0
    /// Bit `slot` is set when that fuel has a price.
    private var present: UInt8 = 0

    public init() {}

    public init(_ prices: [FuelCode: Price]) {
        for (fuel, price) in prices { self[fuel] = price }
    }

    public subscript(fuel: FuelCode) -> Price? {
        get {
            let slot = fuel.slot
            guard present & (1 << slot) != 0 else { return nil }
            return Price(tenths: tenths(at: slot))
        }
        set {
            let slot = fuel.slot
            if let newValue {
                present |= 1 << slot
                setTenths(newValue.tenths, at: slot)
            } else {
                present &= ~(1 << slot)
                setTenths(0, at: slot)
            }
        }
    }

    /// How many fuels have a price.
    public var count: Int { present.nonzeroBitCount }
    public var isEmpty: Bool { present == 0 }

    private func tenths(at slot: Int) -> Int32 {
        switch slot {
        case 0: e10
        case 1: e5
        case 2: b7
        default: sdv
        }
    }

    private mutating func setTenths(_ tenths: Int32, at slot: Int) {
        switch slot {
        case 0: e10 = tenths
        case 1: e5 = tenths
        case 2: b7 = tenths
        default: sdv = tenths
        }
    }
}

extension FuelPrices: Sequence {
    public struct Iterator: IteratorProtocol {
        fileprivate let prices: FuelPrices
        fileprivate var slot = 0

        public mutating func next() -> (fuel: FuelCode, price: Price)? {
            while slot < FuelCode.allCases.count {
                defer { slot += 1 }
                if prices.present & (1 << slot) != 0 {
                    return (FuelCode.allCases[slot], Price(tenths: prices.tenths(at: slot)))
                }
            }
            return nil
        }
    }

    public func makeIterator() -> Iterator { Iterator(prices: self) }
    public var underestimatedCount: Int { count }
}

extension FuelPrices: ExpressibleByDictionaryLiteral {
    /// `[.e10: Price(tenths: 1399)]`; a fuel given twice keeps its last price.
    public init(dictionaryLiteral elements: (FuelCode, Price)...) {
        for (fuel, price) in elements { self[fuel] = price }
    }
}

extension FuelPrices: Codable {
    /// The same JSON object a `[FuelCode: Price]` reads: an unknown fuel key is an error.
    public init(from decoder: any Decoder) throws {
        self.init(try [FuelCode: Price](from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyFuelKey.self)
        for (fuel, price) in self { try container.encode(price, forKey: AnyFuelKey(fuel)) }
    }

    private struct AnyFuelKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ fuel: FuelCode) { stringValue = fuel.rawValue }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

extension FuelPrices: CustomStringConvertible {
    public var description: String {
        "[" + map { "\($0.fuel.rawValue): \($0.price)" }.joined(separator: ", ") + "]"
    }
}

extension FuelCode {
    /// The fuel's position in `allCases`: its slot in `FuelPrices` and in per-fuel arrays.
    public var slot: Int {
        switch self {
        case .e10: 0
        case .e5: 1
        case .b7: 2
        case .sdv: 3
        }
    }
}
