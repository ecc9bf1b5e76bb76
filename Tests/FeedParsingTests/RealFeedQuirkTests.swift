import Foundation
import Testing
import FeedParsing
import Messages
import TestSupport

/// The documented quirks of particular real captures.
@Suite(.enabled(if: SharedData.isPresent, Comment(rawValue: SharedData.absentMessage)))
struct RealFeedQuirkTests {
    private func utc(_ text: String) throws -> Date { try Date(text, strategy: .iso8601) }

    @Test(arguments: ["uk-cma-snapshot-2025-10-09/mfg.json", "uk-cma-snapshot-2026-04-10/mfg.json",
                      "uk-cma-mfg-2026-08-12.json"])
    func mfg_sevenZedSitesAreKeptApartWithoutLocation(file: String) throws {
        let feed = try RealFeeds.parse(file)
        let sites = feed.stations.filter { $0.siteId == "7zzzzzzzzzzz" }
        #expect(sites.count >= 4)
        #expect(sites.allSatisfy { $0.location == nil && $0.reportedLatitude == 0 && $0.reportedLongitude == 0 })
        #expect(Set(sites.map(\.id)).count == sites.count)
        #expect(sites.first?.id == "mfg/7zzzzzzzzzzz")
        #expect(sites.dropFirst().map(\.id) == (2...sites.count).map { "mfg/7zzzzzzzzzzz#\($0)" })
        #expect(feed.count(.duplicateSiteId) == sites.count - 1)
    }

    @Test func mfg_pereginePostcodeIsKeptAndWarned() throws {
        let feed = try RealFeeds.parse("uk-cma-snapshot-2025-10-09/mfg.json")
        let peregrine = feed.stations.filter { $0.postcode == "PEREGINE" }
        #expect(!peregrine.isEmpty)
        #expect(feed.count(.invalidPostcode) >= peregrine.count)
        #expect(feed.count(.missingBrand) >= 1)
    }

    /// MFG's August 2026 feed holds two records for each of two BP sites, one with prices left
    /// behind: 147.9p and 148.9p diesel against a feed median of 182.9p (35p and 34p under). Those
    /// are the low outliers an answer warns of; their up-to-date twins are not.
    @Test func mfg_stuckDieselsAreLowOutliers_andTheirUpToDateTwinsAreNot() throws {
        let feed = try RealFeeds.parse("uk-cma-mfg-2026-08-12.json")
        let median = try #require(PriceOutlier.medians(of: feed.stations)[.b7])
        #expect(median == 1829)
        for postcode in ["HU17 8ZN", "YO7 3AA"] {
            let twins = feed.stations.filter { $0.postcode == postcode }.compactMap { $0.prices[.b7]?.tenths }.sorted()
            #expect(twins.count == 2, "\(postcode)")
            #expect(twins.map { PriceOutlier.judge($0, median: median) } == [.low, nil], "\(postcode): \(twins)")
        }
    }

    /// The healthy captures (each retailer's feed of April and October 2025) have no price far
    /// under its median, so an answer never doubts an ordinary cheap price.
    @Test(arguments: ["uk-cma-snapshot-2025-10-09/asda.json", "uk-cma-snapshot-2025-10-09/bp.json",
                      "uk-cma-snapshot-2025-10-09/tesco.json", "uk-cma-snapshot-2025-10-09/mfg.json",
                      "uk-cma-snapshot-2025-10-09/rontec.json", "uk-cma-shell-2025-04-17.json",
                      "uk-cma-asda-2025-04-17.json"])
    func healthyFeeds_haveNoLowOutliers(file: String) throws {
        let feed = try RealFeeds.parse(file)
        let medians = PriceOutlier.medians(of: feed.stations)
        let low = feed.stations.flatMap { station in
            station.prices.compactMap { fuel, price in
                medians[fuel].flatMap { PriceOutlier.judge(price.tenths, median: $0) } == .low ? "\(station.id) \(fuel)" : nil
            }
        }
        #expect(low.isEmpty, "\(low)")
    }

    @Test func mfg_swappedCoordinatesAreFlaggedNotUsed() throws {
        let feed = try RealFeeds.parse("uk-cma-mfg-2026-08-12.json")
        let site = try #require(feed.stations.first { $0.postcode == "SN8 4FD" })
        #expect(site.location == nil)
        #expect(site.reportedLatitude == -1.721881)
        #expect(site.reportedLongitude == 51.414963)
        #expect(feed.count(.swappedCoordinates) == 1)
    }

    @Test(arguments: ["uk-cma-snapshot-2025-10-09/sgn.json", "uk-cma-snapshot-2026-04-10/sgn.json",
                      "uk-cma-sgn-2025-12-06.json", "uk-cma-sgn-2026-08-22.json"])
    func sgn_leadingSpaceSiteIdIsTrimmed(file: String) throws {
        let feed = try RealFeeds.parse(file)
        let site = try #require(feed.stations.first { $0.siteId == "gcny1efvebv0" })
        #expect(site.id == "sgn/gcny1efvebv0")
        #expect(!feed.stations.contains { $0.siteId.hasPrefix(" ") })
    }

    @Test func sgn_oneDigitHourIsParsed() throws {
        let feed = try RealFeeds.parse("uk-cma-sgn-2026-08-22.json")
        #expect(feed.updated == (try utc("2026-08-22T08:58:35Z")))
    }

    @Test func sgn_spacelessPostcodesAreNormalised() throws {
        let feed = try RealFeeds.parse("uk-cma-snapshot-2025-10-09/sgn.json")
        #expect(feed.stations.contains { $0.postcode == "GL15 4BZ" })
        #expect(feed.stations.allSatisfy { $0.postcode.contains(" ") })
    }

    @Test(arguments: ["uk-cma-snapshot-2025-10-09/asda.json", "uk-cma-snapshot-2026-04-10/asda.json",
                      "uk-cma-asda-2025-04-17.json"])
    func asda_duplicateSiteIdGivesTwoDistinctStations(file: String) throws {
        let feed = try RealFeeds.parse(file)
        let pair = feed.stations.filter { $0.siteId == "gcr3m8rsmk3h" }
        #expect(pair.map(\.id) == ["asda/gcr3m8rsmk3h", "asda/gcr3m8rsmk3h#2"])
        #expect(pair.allSatisfy { $0.location != nil })
        #expect(feed.count(.duplicateSiteId) == 1)
    }

    @Test func asda_2026SentinelsAreAbsent() throws {
        let file = "uk-cma-snapshot-2026-04-10/asda.json"
        let feed = try RealFeeds.parse(file)
        let sentinels = try RealFeeds.rawStations(file).reduce(0) { count, station in
            let prices = station["prices"] as? [String: Double] ?? [:]
            return count + prices.values.filter { !(80..<300).contains($0) }.count
        }
        // 999.9 and 10 as the data notes describe, plus one 919.9.
        #expect(sentinels == 20)
        #expect(feed.count(.sentinelPrice) == sentinels)
    }

    @Test func karan_zeroPricesAreAbsent() throws {
        let file = "uk-cma-snapshot-2025-10-09/karan-retail.json"
        let feed = try RealFeeds.parse(file)
        let raw = try RealFeeds.rawStations(file)
        var zeros = 0
        for (station, record) in zip(feed.stations, raw) {
            let prices = record["prices"] as? [String: Double] ?? [:]
            zeros += prices.values.filter { $0 == 0 }.count
            #expect(station.prices.count == prices.values.filter { $0 > 0 }.count, "\(station.id)")
        }
        #expect(zeros == 20)
        #expect(feed.count(.sentinelPrice) == zeros)
    }

    @Test func karan_noBreakSpacesAreRemovedFromAddresses() throws {
        let feed = try RealFeeds.parse("uk-cma-snapshot-2025-10-09/karan-retail.json")
        #expect(!feed.stations.contains { $0.address.contains("\u{A0}") || $0.address.contains("  ") })
    }

    @Test func morrisons_stringCoordinatesAreParsed() throws {
        let feed = try RealFeeds.parse("uk-cma-snapshot-2025-10-09/morrisons.json")
        let chingford = try #require(feed.stations.first { $0.postcode == "E4 8SN" })
        #expect(chingford.location == Coordinate(lat: 51.607075, lng: -0.019924))
        let gibraltar = try #require(feed.stations.first { $0.postcode == "GX11 1AA" })
        #expect(gibraltar.location == nil)
        #expect(gibraltar.reportedLatitude == 36.14498138)
        #expect(feed.count(.outsideUK) == 1)
    }

    @Test func jet_dashedLastUpdatedIsParsed() throws {
        // The JET feed wrote `25-04-2024 10:45:32` in 2024; rewrite the saved capture's date the same way.
        let data = try RealFeeds.data("uk-cma-snapshot-2025-10-09/jet.json")
        let text = try #require(String(data: data, encoding: .utf8))
        #expect(text.contains("\"09/10/2025 10:45:17\""))
        let dashed = text.replacingOccurrences(of: "\"09/10/2025 10:45:17\"", with: "\"09-10-2025 10:45:17\"")
        let feed = try FeedParser().parse(Data(dashed.utf8), retailer: "jet",
                                          fetchedAt: try utc("2025-10-09T12:00:00Z"))
        #expect(feed.updated == (try utc("2025-10-09T09:45:17Z")))
        #expect(feed.warnings.isEmpty)
        #expect(feed.stations.contains { $0.postcode == "DH6 3LJ" && $0.prices.isEmpty })
    }

    @Test(arguments: ["uk-cma-snapshot-2025-10-09/rontec.json", "uk-cma-rontec-2025-11-03.json"])
    func rontec_reversedKeyOrderIsReadByName(file: String) throws {
        let feed = try RealFeeds.parse(file)
        #expect(feed.locatedCount == feed.acceptedCount)
        #expect(feed.stations.allSatisfy { !$0.siteId.isEmpty && !$0.address.isEmpty && $0.brand != "Rontec" })
        let first = try #require(feed.stations.first)
        #expect(first.location == Coordinate(lat: 52.98835, lng: -2.22343))
        #expect(first.brand == "Esso")
    }

    @Test func rontec_lastUpdatedAfterStationsIsParsed() throws {
        let feed = try RealFeeds.parse("uk-cma-snapshot-2025-10-09/rontec.json")
        #expect(feed.updated == (try utc("2025-10-09T09:55:05Z")))
    }

    /// The two wrong coordinates (DATA.md): flagged, and the stations placed where their site ids
    /// and postcodes agree (directions led to Galloway for a Sunderland station, QA).
    @Test func ascona_wrongCoordinatesAreFlagged_andTheSiteIdsPositionUsed() throws {
        let feed = try RealFeeds.parse("uk-cma-snapshot-2025-10-09/ascona-group.json")
        #expect(feed.count(.geohashMismatch) == 2)
        #expect(feed.locatedCount == feed.acceptedCount)
        let sunderland = try #require(feed.stations.first { $0.postcode == "SR3 3ND" })
        #expect(sunderland.reportedLongitude == -4.470685)
        #expect(abs((sunderland.location?.lng ?? 0) - -1.4355) < 0.001, "\(String(describing: sunderland.location))")
        let marlborough = try #require(feed.stations.first { $0.postcode == "SN8 1PU" })
        #expect(abs((marlborough.location?.lat ?? 0) - 51.42) < 0.05, "\(String(describing: marlborough.location))")
    }

    @Test func shell_rawBodyAndReserialisedCaptureAgree() throws {
        let raw = try RealFeeds.parse("uk-cma-shell-2025-04-13-raw.json")
        let next = try RealFeeds.parse("uk-cma-shell-2025-04-14-raw.json")
        #expect(raw.acceptedCount == 555)
        #expect(raw.stations.map(\.id) == next.stations.map(\.id))
        #expect(raw.stations.first?.name == "Shell Carwin Rise")
        #expect(raw.stations.first?.brand == "Shell")
    }

    @Test func esso_allCapsAddressesAndNames() throws {
        let feed = try RealFeeds.parse("uk-cma-snapshot-2025-10-09/esso-tesco-alliance.json")
        let bolton = try #require(feed.stations.first { $0.postcode == "BL2 1JR" })
        #expect(bolton.address == "104 Bradford Street, Bolton")
        // The feed has several Esso stations in Bolton: each is named by its street.
        #expect(bolton.name == "Esso Bradford Street")
    }

    @Test func tesco_namesUseTheTown() throws {
        let feed = try RealFeeds.parse("uk-cma-snapshot-2025-10-09/tesco.json")
        let selby = try #require(feed.stations.first { $0.postcode == "YO8 9EG" })
        #expect(selby.name == "Tesco Selby")
        #expect(selby.brand == "Tesco")
    }
}
