import Foundation

/// The assistant's name: intent-router hears it in every phrase ("Ask FuelBoard for...") and
/// dialog-renderer says it ("FuelBoard only has fuel prices for the UK"). One setting serves both,
/// as the topology does: `--app-name`, else `FUELBOARD_APP_NAME`, else FuelBoard.
public enum AppNameSetting {
    public static let defaultName = "FuelBoard"
    public static let flag = "--app-name"
    public static let environment = "FUELBOARD_APP_NAME"

    public static func option(_ role: String) -> OptionSpec {
        OptionSpec(flag, value: "NAME", help: "\(role) [$\(environment), default \(defaultName)]")
    }

    /// A name that can be written in a sentence: 1 to 60 characters, not blank, no control characters.
    public static func isWritable(_ name: String) -> Bool {
        (1...60).contains(name.count) && !name.allSatisfy(\.isWhitespace)
            && !name.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}

extension ServiceMain {
    /// The app name from `--app-name`, else `FUELBOARD_APP_NAME`, else the default; a name
    /// `isUsable` refuses exits 64 naming where it came from.
    public func appName(environment: [String: String] = ProcessInfo.processInfo.environment,
                        isUsable: (String) -> Bool) -> String {
        let (name, source) = arguments.value(AppNameSetting.flag).map { ($0, AppNameSetting.flag) }
            ?? environment[AppNameSetting.environment].map { ($0, AppNameSetting.environment) }
            ?? (AppNameSetting.defaultName, "the default")
        guard isUsable(name) else {
            Self.usageFailure(name: self.name, ConfigurationError(
                "\(source): '\(name.prefix(80))' cannot be the app name (it needs words that can be said and written)"))
        }
        return name
    }
}
