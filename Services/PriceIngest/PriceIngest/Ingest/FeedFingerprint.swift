import Foundation

/// A fingerprint of a feed's bytes (64-bit FNV-1a, 16 hex digits), stored with its stations so that
/// a poll fetching the very same bytes again can change nothing: no new version, no update
/// published, no replica rebuilding its index for nothing. Not a defence against anyone: a feed
/// comes from its own retailer's URL, and a collision would only delay one change by one poll.
enum FeedFingerprint {
    static func of(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        data.withUnsafeBytes { raw in
            for byte in raw {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
            }
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
