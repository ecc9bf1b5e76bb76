/// Turns a retailer's name into the slug that keys its feed (`"Esso Tesco Alliance"` -> `esso-tesco-alliance`).
public enum RetailerName {
    /// The longest slug accepted.
    public static let maxLength = 40

    /// The slug: ASCII letters lower-cased, digits kept, apostrophes dropped, runs of spaces, `-`, `_`, `.`
    /// or `/` made one `-`, no `-` at either end. Any other character, or a result that is empty or longer
    /// than `maxLength`, is a `FeedError.badRetailerName`.
    public static func slug(_ name: String) throws(FeedError) -> String {
        var slug = ""
        var pendingSeparator = false
        for scalar in name.unicodeScalars {
            switch scalar {
            case "a"..."z", "0"..."9", "A"..."Z":
                if pendingSeparator, !slug.isEmpty { slug.append("-") }
                pendingSeparator = false
                slug.append(Character(scalar).lowercased())
            case "'", "\u{2019}":
                continue
            case " ", "\t", "\n", "\r", "\u{A0}", "-", "_", ".", "/":
                pendingSeparator = true
            default:
                throw .badRetailerName(name)
            }
            if slug.unicodeScalars.count > maxLength { throw .badRetailerName(name) }
        }
        guard !slug.isEmpty else { throw .badRetailerName(name) }
        return slug
    }

    /// A display form of a slug, for stations with no brand (`mfg` -> `MFG`, `karan-retail` -> `Karan Retail`).
    static func displayName(ofSlug slug: String) -> String {
        let words = slug.split(separator: "-").map { word -> String in
            let text = String(word)
            if let known = BrandName.knownWord(text) { return known }
            if text.count <= 3, !text.contains(where: { "aeiouy".contains($0) }) { return text.uppercased() }
            return text.prefix(1).uppercased() + text.dropFirst()
        }
        return words.joined(separator: " ")
    }
}
