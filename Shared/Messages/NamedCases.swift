import Foundation

/// A wire enum whose cases are words: one that is not is refused naming the words it takes,
/// not with the decoder's `Cannot initialize PluginResultCode from invalid String value ok`
/// (a Swift type a plug-in's author never sees: plug-in QA).
public protocol NamedCases: RawRepresentable, CaseIterable, Decodable where RawValue == String {}

extension NamedCases {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = Self(rawValue: text) else {
            let names = Self.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\"\(text.prefix(40))\" is not one of \(names)")
        }
        self = value
    }
}
