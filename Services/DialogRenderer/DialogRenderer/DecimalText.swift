/// Numbers as the shortest decimal text that reads back as them, digit by digit where that is
/// quick: as `JSONWriter.number` writes JSON numbers, and as `MapsLink.coordinate` writes
/// coordinates, without making a `String`.
enum DecimalText {
    /// A number that is not whole, of at least 0.0001 and less than 10^9, with at most six
    /// decimals: its digits, and nil for any other.
    ///
    /// The fewest decimals that read back as the number are those of its text with six decimals
    /// less the trailing zeros: that text is within a millionth of the number, so any text with
    /// fewer decimals that reads back as it is the same text with zeros dropped.
    static func fixedPoint(_ magnitude: Double) -> (whole: Int, fraction: Int, decimals: Int)? {
        guard magnitude >= 1e-4, magnitude < 1e9 else { return nil }
        let scaled = (magnitude * 1e6).rounded()
        guard scaled / 1e6 == magnitude else { return nil }
        var digits = Int(scaled)
        var decimals = 6
        while decimals > 0, digits % 10 == 0 {
            digits /= 10
            decimals -= 1
        }
        guard decimals > 0 else { return nil }
        var scale = 1
        for _ in 0..<decimals { scale *= 10 }
        return (digits / scale, digits % scale, decimals)
    }

    /// `JSONWriter.number(value)`'s text.
    static func appendJSONNumber(_ value: Double, to scratch: inout TextScratch) {
        guard value.isFinite else { return scratch.append("null") }
        if value == 0 { return scratch.append(value.sign == .minus ? "-0" : "0") }
        let magnitude = abs(value)
        if value == value.rounded(), magnitude <= 0x1p53 {
            if value < 0 { scratch.append(byte: UInt8(ascii: "-")) }
            return scratch.append(digitsOf: Int(magnitude))
        }
        guard let fixed = fixedPoint(magnitude) else { return scratch.append(text: value.description) }
        if value < 0 { scratch.append(byte: UInt8(ascii: "-")) }
        appendFixed(fixed, to: &scratch)
    }

    static func appendFixed(_ fixed: (whole: Int, fraction: Int, decimals: Int), to scratch: inout TextScratch) {
        scratch.append(digitsOf: fixed.whole)
        scratch.append(byte: UInt8(ascii: "."))
        scratch.append(digitsOf: fixed.fraction, minimumCount: fixed.decimals)
    }
}
