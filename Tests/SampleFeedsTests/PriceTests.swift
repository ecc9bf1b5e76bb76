import Foundation
import Testing
import SampleFeeds

struct SamplePriceTests {
    private func isMotorway(_ station: ParsedStation) -> Bool {
        station.retailer == "moto" || (station.address?.uppercased().contains(" SERVICES") ?? false)
    }

    private func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    @Test func prices_whenClean_stayInRealisticRanges() throws {
        var problems: [String] = []
        for station in try FeedReader.stations(FeedFixtures.demoClean) + FeedFixtures.largeStations {
            let prices = station.prices
            let tag = "\(station.retailer) \(station.siteId ?? "")"
            for value in prices.values where abs(value * 10 - (value * 10).rounded()) > 1e-6 {
                problems.append("\(tag): more than one decimal in \(value)")
            }
            if let e10 = prices["E10"] {
                let range = isMotorway(station) ? 146.0...181.0 : 126.0...151.0
                if !range.contains(e10) { problems.append("\(tag): E10 \(e10)") }
                if let e5 = prices["E5"], !(7.0...13.0).contains(e5 - e10) { problems.append("\(tag): E5 \(e5)") }
                if let b7 = prices["B7"], !(4.0...11.0).contains(b7 - e10) { problems.append("\(tag): B7 \(b7)") }
            }
            if let b7 = prices["B7"], let sdv = prices["SDV"], !(14.0...26.0).contains(sdv - b7) {
                problems.append("\(tag): SDV \(sdv) over B7 \(b7)")
            }
        }
        #expect(problems.isEmpty, "\(problems.count) problems, e.g. \(problems.prefix(5))")
    }

    @Test func prices_whenComparedByRetailer_supermarketsAreCheaperAndMotorwaysDearer() throws {
        let stations = FeedFixtures.largeStations
        func medianE10(_ retailers: Set<String>) -> Double {
            let chosen = stations.filter { retailers.contains($0.retailer) && !isMotorway($0) }
            return median(chosen.compactMap { $0.prices["E10"] })
        }
        let supermarkets = medianE10(["asda", "tesco", "sainsburys", "morrisons"])
        let forecourts = medianE10(["bp", "shell", "mfg"])
        let motorway = median(stations.filter { $0.retailer == "moto" }.compactMap { $0.prices["E10"] })
        #expect(forecourts - supermarkets >= 3)
        #expect(motorway - forecourts >= 15)
    }

    @Test func fuels_whenByRetailer_followTheRealRange() throws {
        let stations = FeedFixtures.largeStations
        let tesco = stations.filter { $0.retailer == "tesco" }
        let shell = stations.filter { $0.retailer == "shell" }
        #expect(!tesco.isEmpty && tesco.allSatisfy { $0.prices["SDV"] == nil })
        #expect(!shell.isEmpty && shell.allSatisfy { Set($0.prices.keys) == ["E10", "B7"] })
        #expect(stations.contains { $0.prices["E5"] == nil } && stations.contains { $0.prices["SDV"] != nil })
        let wholePence = stations.flatMap(\.prices.values).filter { $0 == $0.rounded() }
        #expect(!wholePence.isEmpty, "some prices should be round integers such as 150")
    }
}
