import Foundation
import Messages
import ServiceKit

/// `fuelboard lookup --fuel B7 --at LAT,LNG --radius 5 [--limit N]`.
enum LookupCommand {
    static let spec = (
        usage: "--fuel FUEL --at LAT,LNG [--radius MILES] [--limit N] [--nearest]",
        summary: """
            Asks fuel-lookup for the cheapest (or, with --nearest, the nearest) stations selling a fuel.
            Values out of range are refused here (exit 64) before any request is sent.
            """,
        options: [
            OptionSpec("--fuel", value: "FUEL",
                       help: "E10 or unleaded/petrol, E5 or premium/super unleaded, B7 or diesel, "
                           + "SDV or super/premium diesel (any case)"),
            OptionSpec("--at", value: "LAT,LNG", help: "where to search from, in decimal degrees"),
            OptionSpec("--radius", value: "MILES",
                       help: "search radius in miles, above 0 and at most \(formatMiles(maxRadiusMiles)) (default 5)"),
            OptionSpec("--limit", value: "N", help: "how many stations, 1 to \(maxLimit) (default 5)"),
            OptionSpec("--nearest", help: "order by distance instead of price"),
            OptionSpec("--max-age-hours", value: "H", help: "only prices from feeds updated within H hours"),
            OptionSpec("--brand", value: "NAME", help: "only this forecourt brand"),
            OptionSpec("--retailer", value: "NAME", help: "only this retailer's feed"),
        ]
    )

    /// The largest radius and limit fuel-lookup accepts: the CLI refuses more itself rather than
    /// sending a request bound to fail.
    static let maxRadiusMiles = LookupRequest.maxRadiusMiles
    static let maxLimit = LookupRequest.maxLimit

    static func run(_ cli: CLIContext) throws -> Int32 {
        let request = try request(cli.arguments)
        let nearest = cli.arguments.has("--nearest")
        let client = try cli.client(cli.topology.lookup)
        let type: MessageType = nearest ? .lookupNearest : .lookupCheapest
        let reply: LookupReply
        do {
            reply = try client.call(type, request, as: LookupReply.self)
        } catch {
            return CLIContext.failed("lookup", error)
        }
        if cli.json {
            try cli.printJSON(reply)
        } else {
            print(render(reply, fuel: request.fuel, radius: request.radiusMiles ?? 5))
        }
        if reply.results.isEmpty, let hint = CLIContext.swappedCoordinatesHint(Coordinate(lat: request.lat, lng: request.lng)) {
            CLIContext.printStatus(hint)
        }
        return ServiceMain.ExitCode.success
    }

    /// The request the options describe, every value checked as fuel-lookup checks it.
    static func request(_ arguments: ParsedArguments) throws(ConfigurationError) -> LookupRequest {
        guard let atText = arguments.value("--at") else {
            throw ConfigurationError("--at LAT,LNG is required (e.g. --at 53.78,-1.07)")
        }
        let point = try CLIContext.coordinate(atText, option: "--at")
        let fuel = try arguments.value("--fuel").map { text throws(ConfigurationError) in
            guard let code = FuelCode(word: text) else {
                throw ConfigurationError("--fuel: unknown fuel '\(text)' (use E10/unleaded, E5/premium, B7/diesel "
                    + "or SDV/super diesel)")
            }
            return code
        }
        if fuel == nil && !arguments.has("--nearest") {
            throw ConfigurationError("--fuel is required (E10/unleaded, E5/premium, B7/diesel or SDV/super diesel)")
        }
        let radius = try number(arguments, "--radius", expected: "miles more than 0 and at most "
                                + formatMiles(maxRadiusMiles)) { $0 > 0 && $0 <= maxRadiusMiles } ?? 5
        let limit = try number(arguments, "--limit", expected: "a whole number from 1 to \(maxLimit)") {
            $0 == $0.rounded() && $0 >= 1 && $0 <= Double(maxLimit)
        }.map { Int($0) } ?? 5
        let maxAge = try number(arguments, "--max-age-hours", expected: "a positive number of hours") { $0 > 0 }
        return LookupRequest(fuel: fuel?.rawValue, lat: point.lat, lng: point.lng, radiusMiles: radius, limit: limit,
                             maxAgeHours: maxAge, brand: arguments.value("--brand"),
                             retailer: arguments.value("--retailer"))
    }

    /// An option's finite number that passes `isValid`; nil when the option is absent.
    private static func number(_ arguments: ParsedArguments, _ name: String, expected: String,
                               _ isValid: (Double) -> Bool) throws(ConfigurationError) -> Double? {
        guard let text = arguments.value(name) else { return nil }
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite, isValid(value) else {
            throw ConfigurationError("\(name): expected \(expected), got '\(text)'")
        }
        return value
    }

    static func render(_ reply: LookupReply, fuel: String?, radius: Double) -> String {
        if reply.indexedStations == 0 { return "No price data loaded yet (ingest some feeds first)." }
        if reply.results.isEmpty {
            let name = fuel.flatMap { FuelCode(code: $0) }.map { "\($0.rawValue) (\($0.spokenName))" } ?? "fuel"
            return "No station selling \(name) within \(formatMiles(radius)) \(radius == 1 ? "mile" : "miles")."
        }
        var table = TextTable(headers: ["#", "station", "postcode", "price", "miles", "prices as of"],
                              rightAligned: [0, 3, 4])
        for (rank, result) in reply.results.enumerated() {
            let price = result.pricePence.map { String(format: "%.1fp", $0) + outlierMark(result.priceOutlier) } ?? "-"
            table.add(["\(rank + 1)", result.station.name, result.station.postcode, price,
                       String(format: "%.1f", result.distanceMiles), formatUpdated(result.updated)])
        }
        let notes = PriceOutlier.allCases.filter { kind in reply.results.contains { $0.priceOutlier == kind } }
            .map { "\(outlierMark($0)) \(outlierMeaning($0))" }
        return ([table.rendered.trimmingCharacters(in: .newlines)] + notes).joined(separator: "\n")
    }

    /// The mark after a price that is an outlier in its retailer's feed, explained under the table.
    static func outlierMark(_ outlier: PriceOutlier?) -> String {
        switch outlier {
        case .low?: "*"
        case .high?: "+"
        case nil: ""
        }
    }

    static func outlierMeaning(_ outlier: PriceOutlier) -> String {
        switch outlier {
        case .low: "more than 30p below the median of its retailer's feed: may be out of date"
        case .high: "more than 35p above the median of its retailer's feed"
        }
    }

    static func formatMiles(_ miles: Double) -> String {
        miles == miles.rounded() ? String(Int(miles)) : String(format: "%.1f", miles)
    }

    /// `29 Nov 2025 06:30` in UK time: a two-digit 24-hour clock and English month names, whatever
    /// the machine's locale (the table's times line up).
    static func formatUpdated(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "Europe/London") ?? .gmt
        formatter.dateFormat = "d MMM yyyy HH:mm"
        return formatter.string(from: date)
    }
}
