import Testing
import SampleFeeds

struct SeededRandomTests {
    @Test func splitMix64_whenSeedZero_givesReferenceSequence() {
        var generator = SplitMix64(seed: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
        #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(generator.next() == 0x06C4_5D18_8009_454F)
    }

    @Test func seededRandom_whenSeedOne_givesPinnedSequence() {
        var random = SeededRandom(seed: 1)
        #expect(random.next() == 0xB3F2_AF6D_0FC7_10C5)
        #expect(random.next() == 0x853B_5596_4736_4CEA)
        #expect(random.next() == 0x92F8_9756_082A_4514)
    }

    @Test func seededRandom_whenSameSeed_repeatsAndDifferentSeedDiffers() {
        var first = SeededRandom(seed: 99), second = SeededRandom(seed: 99), other = SeededRandom(seed: 100)
        let a = (0..<50).map { _ in first.next() }
        #expect(a == (0..<50).map { _ in second.next() })
        #expect(a != (0..<50).map { _ in other.next() })
    }

    @Test func below_whenSampledOften_staysInRangeAndHitsEveryValue() {
        var random = SeededRandom(seed: 5)
        var seen = Array(repeating: 0, count: 7)
        for _ in 0..<7_000 {
            let value = random.below(7)
            #expect((0..<7).contains(value))
            if (0..<7).contains(value) { seen[value] += 1 }
        }
        #expect(seen.allSatisfy { (800...1_200).contains($0) })
    }

    @Test func unitAndBell_whenSampled_stayInTheirBounds() {
        var random = SeededRandom(seed: 6)
        var sum = 0.0
        for _ in 0..<10_000 {
            let unit = random.unit()
            let bell = random.bell()
            #expect(unit >= 0 && unit < 1)
            #expect(abs(bell) < 3.47)
            sum += bell
        }
        #expect(abs(sum / 10_000) < 0.05)
    }

    @Test func derive_whenStreamsDiffer_givesDifferentSeeds() {
        let seeds = Set((0..<100).map { SplitMix64.derive(42, stream: UInt64($0)) })
        #expect(seeds.count == 100)
    }
}
