/// Canonical display forms of forecourt brands (`ESSO`, `Esso ` -> `Esso`; `Bp` -> `BP`;
/// `M&S`, `Marks & Spencer` -> `M&S`).
enum BrandName {
    /// The longest brand kept.
    static let maxLength = 40

    /// Known brands keyed by their letters and digits only, lower-cased (`co-op` and `Coop` -> `coop`).
    private static let known: [String: String] = [
        "esso": "Esso", "bp": "BP", "tesco": "Tesco", "shell": "Shell", "texaco": "Texaco",
        "jet": "JET", "coop": "Co-op", "cooperative": "Co-op", "asda": "Asda", "asdaexpress": "Asda Express",
        "morrisons": "Morrisons", "murco": "Murco", "valero": "Valero", "essar": "Essar",
        "sainsburys": "Sainsbury's", "applegreen": "Applegreen", "gulf": "Gulf", "total": "TotalEnergies",
        "totalenergies": "TotalEnergies", "harvestenergy": "Harvest Energy", "maxol": "Maxol",
        "certas": "Certas Energy", "certasenergy": "Certas Energy", "moto": "Moto", "mfg": "MFG",
        "motorfuelgroup": "MFG", "rontec": "Rontec", "sgn": "SGN", "ascona": "Ascona", "asconagroup": "Ascona",
        "karan": "Karan", "karanretail": "Karan Retail", "uk": "UK", "welcomebreak": "Welcome Break",
        "roadchef": "Roadchef", "extra": "Extra", "emo": "EMO", "pace": "Pace", "gleaner": "Gleaner",
        "ms": "M&S", "marksspencer": "M&S", "marksandspencer": "M&S",
    ]

    /// The canonical form of a brand, or nil when the text holds no letters or digits.
    ///
    /// Known brands map case-insensitively; others have whitespace collapsed and, when written all in one
    /// case, are title-cased (`GOLDEN FUELS` -> `Golden Fuels`).
    static func canonical(_ raw: String) -> String? {
        let collapsed = TextNormaliser.collapseWhitespace(raw)
        let key = lookupKey(collapsed)
        guard !key.isEmpty else { return nil }
        if let brand = known[key] { return brand }
        let shaped = TextNormaliser.isSingleCase(collapsed) ? TextNormaliser.titleCased(collapsed) : collapsed
        return TextClip.clip(shaped, to: maxLength)
    }

    /// The canonical form of a single known word (`jet` -> `JET`), used for retailer display names.
    static func knownWord(_ word: String) -> String? { known[lookupKey(word)] }

    private static func lookupKey(_ text: String) -> String {
        String(text.lowercased().unicodeScalars.filter { ("a"..."z").contains($0) || ("0"..."9").contains($0) }
            .map(Character.init))
    }
}
