import Foundation
import Messages
import ServiceKit

/// `fuelboard lookup --fuel B7 --at LAT,LNG --radius 5 [--limit N]`.
enum LookupCommand {
    static let spec = (
        usage: "--fuel CODE --at LAT,LNG [--radius MILES] [--limit N] [--nearest]",
        summary: "Asks fuel-lookup for the cheapest (or, with --nearest, the nearest) stations selling a fuel.",
        options: [
            OptionSpec("--fuel", value: "CODE", help: "E10 (unleaded), E5 (premium), B7 (diesel) or SDV (super diesel)"),
            OptionSpec("--at", value: "LAT,LNG", help: "where to search from, in decimal degrees"),
            OptionSpec("--radius", value: "MILES", help: "search radius in miles (default 5)"),
            OptionSpec("--limit", value: "N", help: "how many stations (default 5)"),
            OptionSpec("--nearest", help: "order by distance instead of price"),
            OptionSpec("--max-age-hours", value: "H", help: "only prices from feeds updated within H hours"),
            OptionSpec("--brand", value: "NAME", help: "only this forecourt brand"),
            OptionSpec("--retailer", value: "NAME", help: "only this retailer's feed"),
        ]
    )

    static func run(_ cli: CLIContext) throws -> Int32 {
        let arguments = cli.arguments
        guard let atText = arguments.value("--at"), let point = CLIContext.parseCoordinate(atText) else {
            throw ConfigurationError("--at LAT,LNG is required (e.g. --at 53.78,-1.07)")
        }
        let nearest = arguments.has("--nearest")
        let fuel = arguments.value("--fuel")
        if fuel == nil && !nearest { throw ConfigurationError("--fuel is required (E10, E5, B7 or SDV)") }
        func number(_ name: String) throws -> Double? {
            guard let text = arguments.value(name) else { return nil }
            guard let value = Double(text) else { throw ConfigurationError("\(name): '\(text)' is not a number") }
            return value
        }
        let limit = try number("--limit").map { Int($0) } ?? 5
        let request = LookupRequest(fuel: fuel, lat: point.lat, lng: point.lng, radiusMiles: try number("--radius") ?? 5,
                                    limit: limit, maxAgeHours: try number("--max-age-hours"),
                                    brand: arguments.value("--brand"), retailer: arguments.value("--retailer"))
        let client = try cli.client(cli.topology.lookup)
        let type: MessageType = nearest ? .lookupNearest : .lookupCheapest
        let reply: LookupReply
        do {
            reply = try client.call(type, request, as: LookupReply.self)
        } catch {
            CLIContext.printError("lookup failed: \(error.message) [\(error.code.rawValue)]")
            return error.code == .unavailable ? ServiceMain.ExitCode.unavailable : ServiceMain.ExitCode.failure
        }
        if cli.json {
            try cli.printJSON(reply)
        } else {
            print(render(reply, fuel: fuel, radius: request.radiusMiles ?? 5))
        }
        return ServiceMain.ExitCode.success
    }

    static func render(_ reply: LookupReply, fuel: String?, radius: Double) -> String {
        if reply.indexedStations == 0 { return "No price data loaded yet (ingest some feeds first)." }
        if reply.results.isEmpty {
            return "No station selling \(fuel ?? "fuel") within \(formatMiles(radius)) miles."
        }
        var table = TextTable(headers: ["#", "station", "postcode", "price", "miles", "prices as of"],
                              rightAligned: [0, 3, 4])
        for (rank, result) in reply.results.enumerated() {
            table.add(["\(rank + 1)", result.station.name, result.station.postcode,
                       result.pricePence.map { String(format: "%.1fp", $0) } ?? "-",
                       String(format: "%.1f", result.distanceMiles), formatUpdated(result.updated)])
        }
        return table.rendered.trimmingCharacters(in: .newlines)
    }

    static func formatMiles(_ miles: Double) -> String {
        miles == miles.rounded() ? String(Int(miles)) : String(format: "%.1f", miles)
    }

    /// `29 Nov 06:30` in UK time.
    static func formatUpdated(_ date: Date) -> String {
        var style = Date.FormatStyle(date: .abbreviated, time: .shortened)
        style.timeZone = TimeZone(identifier: "Europe/London") ?? .gmt
        style.locale = Locale(identifier: "en_GB")
        return date.formatted(style)
    }
}
