import Foundation

/// Apple Maps driving directions to a point.
public enum MapsLink {
    /// `https://maps.apple.com/?daddr=53.768681,-1.089549&dirflg=d`, coordinates exactly as given.
    public static func directions(lat: Double, lng: Double) -> String {
        "https://maps.apple.com/?daddr=\(coordinate(lat)),\(coordinate(lng))&dirflg=d"
    }

    /// The shortest text that reads back as the same number, never in exponent form
    /// (`-1e-05` becomes `-0.00001`).
    static func coordinate(_ value: Double) -> String {
        let text = "\(value)"
        guard text.contains("e") else { return text.hasSuffix(".0") ? String(text.dropLast(2)) : text }
        var fixed = String(format: "%.10f", value)
        while fixed.hasSuffix("0") { fixed.removeLast() }
        if fixed.hasSuffix(".") { fixed.removeLast() }
        return fixed == "-0" ? "0" : fixed
    }
}

extension MapsLink {
    /// `directions(lat:lng:)` appended to `scratch`.
    static func appendDirections(lat: Double, lng: Double, to scratch: inout TextScratch) -> Range<Int> {
        scratch.phrase { scratch in
            scratch.append("https://maps.apple.com/?daddr=")
            appendCoordinate(lat, to: &scratch)
            scratch.append(byte: UInt8(ascii: ","))
            appendCoordinate(lng, to: &scratch)
            scratch.append("&dirflg=d")
        }
    }

    /// `coordinate(value)` appended to `scratch`: digit by digit for zero, whole numbers and
    /// numbers of up to six decimals from 0.0001 (every coordinate given to the metre), whose
    /// shortest text is the one with fewest decimals (`DecimalText.fixedPoint`).
    static func appendCoordinate(_ value: Double, to scratch: inout TextScratch) {
        let magnitude = abs(value)
        if value == 0 { return scratch.append(value.sign == .minus ? "-0" : "0") }
        if magnitude == magnitude.rounded(), magnitude < 1e9 {
            if value < 0 { scratch.append(byte: UInt8(ascii: "-")) }
            return scratch.append(digitsOf: Int(magnitude))
        }
        guard let fixed = DecimalText.fixedPoint(magnitude) else { return scratch.append(text: coordinate(value)) }
        if value < 0 { scratch.append(byte: UInt8(ascii: "-")) }
        DecimalText.appendFixed(fixed, to: &scratch)
    }
}
