import Foundation
import Testing
import SampleFeeds

struct QuirkTests {
    /// Names the quirk that turned `clean` into `quirky` (the same station with and without quirks).
    private func classify(_ quirky: ParsedStation, _ clean: ParsedStation, previousId: String?) -> SampleQuirk? {
        if quirky.siteId != clean.siteId {
            if quirky.siteId == "7zzzzzzzzzzz" && (quirky.location?["latitude"] as? NSNumber) == 0 {
                return .zeroCoordinates
            }
            if quirky.siteId?.trimmingCharacters(in: .whitespaces) == clean.siteId { return .paddedSiteId }
            if quirky.siteId == previousId { return .duplicateSiteId }
            return nil
        }
        if quirky.brand != clean.brand { return .brandVariant }
        if let address = quirky.address, address != clean.address {
            if address.contains("\u{00A0}") { return .noBreakSpaceInAddress }
            return address == address.uppercased() ? .upperCaseAddress : nil
        }
        if let postcode = quirky.postcode, postcode != clean.postcode {
            if !postcode.contains(" ") { return .unspacedPostcode }
            return postcode == postcode.lowercased() ? .lowercasePostcode : nil
        }
        if quirky.location?["latitude"] is String { return .stringCoordinates }
        if quirky.prices != clean.prices {
            for (fuel, value) in quirky.prices where value != clean.prices[fuel] {
                if value == 0 || value == 999.9 { return .sentinelPrice }
                if let cleanValue = clean.prices[fuel], abs(value - cleanValue) < 1e-9 { return .floatNoisePrice }
            }
            return nil
        }
        return nil
    }

    @Test func quirks_whenOn_eachKindAppearsAndMatchesTheReportedCounts() throws {
        let quirkyFeeds = FeedFixtures.demo, cleanFeeds = FeedFixtures.demoClean
        #expect(quirkyFeeds.map(\.retailer) == cleanFeeds.map(\.retailer))
        var seen: [SampleQuirk: Int] = [:]
        for (quirkyFeed, cleanFeed) in zip(quirkyFeeds, cleanFeeds) {
            let quirky = try FeedReader.stations(quirkyFeed), clean = try FeedReader.stations(cleanFeed)
            #expect(quirky.count == clean.count)
            var found: [SampleQuirk: Int] = [:]
            for index in quirky.indices where !NSDictionary(dictionary: quirky[index].object)
                .isEqual(to: clean[index].object) {
                let previousId = index > 0 ? quirky[index - 1].siteId : nil
                let quirk = classify(quirky[index], clean[index], previousId: previousId)
                #expect(quirk != nil, "unexplained change in \(quirkyFeed.retailer) station \(index)")
                if let quirk { found[quirk, default: 0] += 1 }
            }
            #expect(found == quirkyFeed.quirkCounts, "\(quirkyFeed.retailer)")
            seen.merge(found, uniquingKeysWith: +)
        }
        #expect(Set(seen.keys) == Set(SampleQuirk.allCases))
        let total = seen.values.reduce(0, +)
        #expect((20...90).contains(total), "about 1% of 3,000 plus one of each kind, got \(total)")
    }

    @Test func quirks_whenOff_noneAppear() throws {
        let postcode = try Regex(#"^[A-Z]{1,2}[0-9]{1,2} [0-9][A-Z]{2}$"#)
        var problems: [String] = []
        for feed in FeedFixtures.demoClean + FeedFixtures.large {
            if !feed.quirkCounts.isEmpty { problems.append("\(feed.retailer) reports quirks") }
            let stations = try FeedReader.stations(feed)
            if Set(stations.compactMap(\.siteId)).count != stations.count {
                problems.append("\(feed.retailer) has a duplicated site_id")
            }
            let addresses = stations.compactMap(\.address)
            let upperCase = addresses.filter { $0 == $0.uppercased() }.count
            if upperCase != 0 && upperCase != addresses.count {
                problems.append("\(feed.retailer) writes capitals on some sites only")
            }
            for station in stations {
                let tag = "\(feed.retailer) \(station.siteId ?? "nil")"
                if station.siteId?.hasPrefix(" ") != false { problems.append("\(tag): padded id") }
                if station.numericCoordinate.map({ $0.latitude == 0 || $0.longitude == 0 }) != false {
                    problems.append("\(tag): zero or string coordinates")
                }
                if station.postcode?.wholeMatch(of: postcode) == nil { problems.append("\(tag): postcode") }
                if station.address?.contains("\u{00A0}") != false { problems.append("\(tag): no-break space") }
                if station.brand.map({ $0.isEmpty || $0.hasSuffix(" ") }) != false { problems.append("\(tag): brand") }
                if !station.prices.values.allSatisfy({ $0 > 100 && $0 < 300 }) { problems.append("\(tag): sentinel") }
            }
            if String(decoding: feed.json, as: UTF8.self).contains("9999999") {
                problems.append("\(feed.retailer): float noise")
            }
        }
        #expect(problems.isEmpty, "\(problems.count) problems, e.g. \(problems.prefix(5))")
    }

    @Test func quirkRate_whenHigher_plantsProportionallyMore() throws {
        let feeds = try SampleFeedGenerator(options: .init(stations: 3_000, seed: 2025, quirks: true, quirkRate: 0.1))
            .feeds()
        let total = feeds.flatMap(\.quirkCounts.values).reduce(0, +)
        #expect((250...370).contains(total), "expected about 300 + 11, got \(total)")
    }

    @Test func quirks_whenOnWithRateZero_stillShowEveryKindOnce() throws {
        let feeds = try SampleFeedGenerator(options: .init(stations: 800, seed: 9, quirks: true, quirkRate: 0))
            .feeds()
        var counts: [SampleQuirk: Int] = [:]
        for feed in feeds { counts.merge(feed.quirkCounts, uniquingKeysWith: +) }
        #expect(counts == Dictionary(uniqueKeysWithValues: SampleQuirk.allCases.map { ($0, 1) }))
    }
}
