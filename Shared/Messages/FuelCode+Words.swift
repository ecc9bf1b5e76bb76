/// What people call the fuels: one table for the assistant's grammar (intent-router's
/// vocabulary) and the command line (`fuelboard lookup --fuel diesel`), so the two never disagree.
extension FuelCode {
    /// Words and codes, as said, for each fuel FuelBoard prices.
    public static let words: [(code: FuelCode, words: [String])] = [
        (.e10, ["unleaded", "un leaded", "petrol", "E10", "E 10", "E ten", "regular unleaded", "standard unleaded",
                "normal unleaded", "unleaded petrol", "regular petrol", "normal petrol", "standard petrol",
                "ordinary petrol", "95", "95 octane", "unleaded 95", "95 unleaded", "petrol 95", "95 petrol"]),
        (.e5, ["premium", "super unleaded", "E5", "E 5", "E five", "premium unleaded", "premium petrol",
               "super petrol", "super plus unleaded", "super",
               // Super unleaded is sold by its octane: 97 to 99.
               "97", "98", "99", "97 octane", "98 octane", "99 octane", "super 98", "super 99", "unleaded 98",
               "98 unleaded", "97 unleaded", "99 unleaded", "super unleaded 98", "super unleaded 99"]),
        (.b7, ["diesel", "B7", "B 7", "B seven", "regular diesel", "standard diesel", "normal diesel",
               "ordinary diesel"]),
        (.sdv, ["super diesel", "premium diesel", "SDV", "S D V", "ultimate diesel", "v power diesel",
                "performance diesel"]),
    ]

    /// Fuels people ask for that the CMA feeds carry no prices for.
    public static let unpricedWords = [
        "hydrogen", "LPG", "L P G", "autogas", "auto gas", "electric", "electricity", "electric charging",
        "EV charging", "EV", "charging", "charger", "chargers", "charging point", "charging points", "CNG",
        "red diesel", "kerosene", "heating oil", "adblue", "ad blue", "E85", "HVO", "biodiesel", "jet fuel",
        "avgas", "gas", "propane", "paraffin",
    ]

    /// How an unpriced fuel heard as `said` (lower-case words) is named back: as `unpricedWords` writes
    /// it, with letters said one by one joined ("l p g" and "lpg" are "LPG", "ev charging" is "EV
    /// charging"); a code in capitals ("B10"); anything else as heard.
    public static func unpricedName(_ said: String) -> String {
        guard let written = unpricedWords.first(where: { $0.lowercased() == said }) else {
            // A code ("b10", "e85x") is said in capitals, as fuel codes are written.
            let isCode = said.contains(where: \.isNumber) && said.allSatisfy { $0.isLetter || $0.isNumber }
                && said.first?.isLetter == true && said.count <= 6
            return isCode ? said.uppercased() : said
        }
        let words = written.split(separator: " ")
        return words.allSatisfy({ $0.count == 1 }) ? words.joined() : written
    }

    /// A fuel from its code or a word for it in `words`, ignoring case and treating hyphens,
    /// underscores and runs of spaces as one space ("Super-Unleaded", "b7"); nil for anything else.
    public init?(word: String) {
        let said = word.lowercased().split { $0.isWhitespace || $0 == "-" || $0 == "_" }.joined(separator: " ")
        if let code = FuelCode(code: said) {
            self = code
            return
        }
        guard let entry = Self.words.first(where: { $0.words.contains { $0.lowercased() == said } }) else {
            return nil
        }
        self = entry.code
    }
}
