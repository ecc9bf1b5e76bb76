import Foundation
import Testing
import SampleFeeds

/// Pins the exact bytes of a small demo, so output stays identical across machines, toolchains and
/// refactors. If generation is changed on purpose, update the pinned hash (and say so in the commit).
struct GoldenOutputTests {
    /// FNV-1a, 64-bit.
    private func fingerprint(_ feeds: [GeneratedFeed]) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for feed in feeds {
            for byte in Array(feed.retailer.utf8) + Array(feed.json) {
                hash = (hash ^ UInt64(byte)) &* 0x0100_0000_01B3
            }
        }
        return hash
    }

    @Test func demo_whenSeedPinned_producesThePinnedBytes() throws {
        let feeds = try SampleFeedGenerator(options: .demo(stations: 400, seed: 2025)).feeds()
        #expect(fingerprint(feeds) == 0xC2A9_6564_9994_6EBD, "fingerprint \(String(fingerprint(feeds), radix: 16))")
    }
}
