import ServiceKit
/// The ways people say the app's name: "FuelBoard" is heard as "fuelboard" or "fuel board".
public enum AppName {
    public static let defaultName = AppNameSetting.defaultName

    /// Spoken forms of `name`: the words joined, and the words apart (camel case split).
    public static func spokenForms(_ name: String) -> [String] {
        var spaced = ""
        var previous: Character?
        for character in name {
            if let previous, character.isUppercase, previous.isLowercase { spaced.append(" ") }
            spaced.append(character)
            previous = character
        }
        let words = UtteranceNormalizer.words(spaced)
        guard !words.isEmpty else { return [] }
        let joined = words.joined()
        return words.count > 1 ? [joined, words.joined(separator: " ")] : [joined]
    }
}
