import Foundation

/// Locates `../shared/data` beside the repository (present in development and CI, absent in a
/// user's fresh clone). Tests that read it use `.enabled(if: SharedData.isPresent, ...)` so
/// they skip with a message where it is absent and run where it is present.
public enum SharedData {
    /// The repository root, found from this file's path (Shared/TestSupport/SharedData.swift).
    public static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared/data` from the repository root (override with FUELBOARD_SHARED_DATA).
    public static let directory: URL = {
        if let override = ProcessInfo.processInfo.environment["FUELBOARD_SHARED_DATA"] {
            return URL(fileURLWithPath: override)
        }
        return repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/data")
    }()

    public static var isPresent: Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent("real").path)
    }

    /// `data/real/<relative>`.
    public static func real(_ relative: String) -> URL {
        directory.appendingPathComponent("real").appendingPathComponent(relative)
    }

    /// The message a skipped test shows.
    public static let absentMessage = "../shared/data is absent: skipping a test on the real feeds"
}
