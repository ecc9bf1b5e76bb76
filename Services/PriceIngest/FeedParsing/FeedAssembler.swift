import Foundation
import Messages

/// Builds the stations of one feed record by record: refuses records without a usable site id, gives
/// duplicate site ids distinct station ids, and normalises every other field (see `StationFields`).
struct FeedAssembler {
    /// The longest site id accepted.
    static let maxSiteIdLength = 64

    let retailer: String
    let updated: Date
    /// The brand used for stations with none (`mfg` -> `MFG`).
    let fallbackBrand: String
    private(set) var stations: [Station] = []
    private(set) var report: IssueLog
    private(set) var refusals = IssueLog()
    private var usedIds: Set<String> = []
    /// Site id -> (occurrences so far, index of the first record).
    private var siteIdSeen: [String: (count: Int, firstIndex: Int)] = [:]

    init(retailer: String, updated: Date, report: IssueLog) {
        self.retailer = retailer
        self.updated = updated
        self.report = report
        fallbackBrand = RetailerName.displayName(ofSlug: retailer)
    }

    mutating func add(_ record: RawRecord, index: Int) {
        guard case .station(let raw) = record else {
            if case .notAnObject(let found) = record {
                refusals.note(RecordRefusal.notAnObject.rawValue, "stations[\(index)] is \(found), not an object")
            }
            return
        }
        guard let siteId = acceptedSiteId(raw.siteId, index: index) else { return }
        let id = stationId(for: siteId, index: index)
        var fields = StationFields(id: id, fallbackBrand: fallbackBrand, report: report)
        let station = fields.station(from: raw, retailer: retailer, siteId: siteId, updated: updated)
        report = fields.report
        stations.append(station)
    }

    /// C0 and C1 control characters and DEL (ASCII answered without Unicode's tables).
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x80 ? scalar.value < 0x20 || scalar.value == 0x7F : scalar.properties.generalCategory == .control
    }

    /// The trimmed site id, or nil after counting the refusal.
    private mutating func acceptedSiteId(_ value: LenientValue?, index: Int) -> String? {
        let label = "stations[\(index)]"
        switch value {
        case .none, .null?:
            refusals.note(RecordRefusal.missingSiteId.rawValue, "\(label) has no site_id")
        case .string(let text)?:
            let trimmed = text.trimmingWhitespace
            if trimmed.isEmpty {
                refusals.note(RecordRefusal.missingSiteId.rawValue, "\(label) has an empty site_id")
            } else if trimmed.count > Self.maxSiteIdLength
                        || trimmed.unicodeScalars.contains(where: Self.isControl) {
                refusals.note(RecordRefusal.invalidSiteId.rawValue,
                              "\(label) site_id \"\(TextClip.clip(trimmed))\" is too long or has control characters")
            } else {
                return trimmed
            }
        case let other?:
            refusals.note(RecordRefusal.siteIdNotString.rawValue, "\(label) site_id is \(other.described)")
        }
        return nil
    }

    /// `<retailer>/<siteId>`, or with `#2`, `#3`... for a site id already used in this feed.
    private mutating func stationId(for siteId: String, index: Int) -> String {
        let base = "\(retailer)/\(siteId)"
        let seen = siteIdSeen[siteId]
        var occurrence = (seen?.count ?? 0) + 1
        var id = occurrence == 1 ? base : "\(base)#\(occurrence)"
        while usedIds.contains(id) {
            occurrence += 1
            id = "\(base)#\(occurrence)"
        }
        siteIdSeen[siteId] = (occurrence, seen?.firstIndex ?? index)
        usedIds.insert(id)
        if let seen {
            report.note(FeedWarning.duplicateSiteId.rawValue,
                        "\(id): site id \(TextClip.clip(siteId)) repeats stations[\(seen.firstIndex)] (kept apart)")
        }
        return id
    }

    /// Flags prices far from their fuel's median in this feed (`PriceOutlier`: 30p under, 35p over).
    mutating func flagPriceOutliers() {
        let medians = PriceOutlier.medians(of: stations)
        for station in stations {
            for fuel in FuelCode.allCases {
                guard let price = station.prices[fuel], let median = medians[fuel],
                      PriceOutlier.judge(price.tenths, median: median) != nil else { continue }
                let gap = Price(tenths: abs(price.tenths - median))
                report.note(FeedWarning.priceOutlier.rawValue,
                            "\(station.id): \(fuel.rawValue) \(price) is \(gap)p from the feed median "
                            + "\(Price(tenths: median))")
            }
        }
    }
}
