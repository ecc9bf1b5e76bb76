import Foundation

/// Byte counts as the logs and error messages say them.
public enum ByteText {
    /// "7.2 MiB".
    public static func mebibytes(_ bytes: Int) -> String {
        String(format: "%.1f MiB", Double(bytes) / Double(1 << 20))
    }
}
