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
