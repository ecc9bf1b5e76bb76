import Foundation
import IntentKit
import Messages
import ServiceKit
import ZeroMQ

/// "What does diesel cost at the Tesco in Selby?": finds the brand's stations around the town
/// (fuel-lookup `lookup.nearest`), asks which one when there are several, then reads its price
/// (`station.get`).
struct StationPrices: Sendable {
    let lookup: String
    /// The process's ZeroMQ context, shared by every call (a context per call started and stopped
    /// an I/O thread each time).
    let context: Context

    /// Towns the example knows, with their centres (a real service would use a gazetteer).
    static let towns: [String: Coordinate] = [
        "Selby": Coordinate(lat: 53.7838, lng: -1.0664), "York": Coordinate(lat: 53.9590, lng: -1.0815),
        "Leeds": Coordinate(lat: 53.7997, lng: -1.5492), "Goole": Coordinate(lat: 53.7046, lng: -0.8732),
        "Doncaster": Coordinate(lat: 53.5228, lng: -1.1285), "Harrogate": Coordinate(lat: 53.9921, lng: -1.5418),
    ]
    static let brands = ["Tesco", "Asda", "Sainsburys", "Morrisons", "BP", "Shell", "Esso", "Jet", "Texaco"]
    static let fuels: [(String, [String])] = [
        ("E10", ["unleaded", "petrol"]), ("E5", ["super unleaded", "premium unleaded", "premium"]),
        ("B7", ["diesel"]), ("SDV", ["super diesel", "premium diesel"]),
    ]

    var intent: IntentDefinition {
        IntentDefinition(
            "StationPrice",
            parameters: [
                .oneOf("fuel", Self.fuels),
                .oneOf("brand", Self.brands.map { ($0, $0 == "Sainsburys" ? ["sainsbury", "sainsburys"] : []) }),
                .oneOf("town", Self.towns.keys.sorted().map { ($0, []) }),
                PluginParameter(name: "station", type: .string),
            ],
            phrases: [
                "[ask] {app} (what|how much) (does|is) {fuel} [cost] at [the] {brand} in {town}",
                "[ask] {app} [for] the price of {fuel} at [the] {brand} in {town}",
                "(what|how much) (does|is) {fuel} [cost] at [the] {brand} in {town} [(on|with)] {app}",
            ],
            help: "You can also ask me what a fuel costs at a brand's station in a town, such as the Tesco in Selby.",
            resolve: { request in resolve(request) },
            handle: { request in handle(request) })
    }

    func resolve(_ request: IntentRequest) -> PluginResult {
        guard request.string("fuel") != nil else {
            return .needsValue("fuel", "Which fuel: unleaded, super unleaded, diesel or super diesel?")
        }
        if request.string("station") != nil { return .success() }
        guard let brand = request.string("brand"), let town = request.string("town"),
              let centre = Self.towns[town] else {
            return .failure("Which station? Say the brand and the town, like the Tesco in Selby.")
        }
        let nearby: LookupReply
        do {
            nearby = try client().call(.lookupNearest, LookupRequest(fuel: nil, lat: centre.lat, lng: centre.lng,
                                                                      radiusMiles: 5, limit: 50), as: LookupReply.self)
        } catch {
            return .failure("I can't reach fuel prices right now. Please try again in a moment.")
        }
        let matching = nearby.results.map(\.station).filter { Self.folded($0.brand) == Self.folded(brand) }
        switch matching.count {
        case 0:
            return .failure("I can't find a \(brand) station in \(town).")
        case 1:
            return .success(parameters: ["station": .string(matching[0].id)])
        default:
            let shown = Array(matching.prefix(5))
            let streets = shown.map { Self.street($0.address) }
            // Two on one street are told apart by their postcodes: every title names one station.
            let options = zip(shown, streets).map { station, street in
                PluginOption(value: station.id, title: streets.filter { $0 == street }.count > 1
                                 ? "\(street) (\(station.postcode))" : street)
            }.sorted { $0.title < $1.title }
            let list = options.dropLast().map(\.title).joined(separator: ", ") + " or " + (options.last?.title ?? "")
            let question = matching.count > options.count
                ? "There are \(matching.count) \(brand) stations in \(town); here are \(options.count): \(list)?"
                : "There are \(options.count == 2 ? "two" : "\(options.count)") \(brand) stations in \(town): \(list)?"
            return .disambiguation("station", options: options, question)
        }
    }

    func handle(_ request: IntentRequest) -> PluginResult {
        guard let id = request.string("station"), let fuel = request.string("fuel") else {
            return .failure("Which station do you mean?")
        }
        let reply: StationGetReply
        do {
            reply = try client().call(.stationGet, StationGetRequest(id: id), as: StationGetReply.self)
        } catch {
            return .failure("I can't reach fuel prices right now. Please try again in a moment.")
        }
        let fuelName = Self.fuels.first { $0.0 == fuel }?.1.first ?? fuel
        let place = "\(Self.brand(reply.station.brand)), \(Self.street(reply.station.address))"
        guard let pence = reply.prices[fuel] else {
            return .failure("\(place) has no \(fuelName) price right now.")
        }
        let pounds = String(format: "£%.3f", pence / 100)
        // A price is never said without its age, as the built-in answers do.
        let now = Date()
        let freshness = "prices " + PriceAgeWords.phrase(reply.updated, now: now)
        let stale = PriceAgeWords.isStale(reply.updated, now: now)
        let said = "\(fuelName.prefix(1).uppercased() + fuelName.dropFirst()) costs \(pounds) at \(place) — \(freshness)."
        // A price far below the retailer's others is likely one it stopped updating: say so (once,
        // after the out-of-date note).
        let doubtful = reply.priceOutliers?[fuel] != .low ? ""
            : stale ? " That price is also much lower than at the retailer's other stations."
            : " That price is much lower than at the retailer's other stations, so it may be out of date."
        return .success(said + (stale ? " These prices may be out of date." : "") + doubtful,
                        value: "\(place): \(pounds)",
                        snippet: Snippet(title: place, subtitle: fuelName, freshness: freshness, price: pounds,
                                         id: reply.station.id, postcode: reply.station.postcode,
                                         lat: reply.station.lat, lng: reply.station.lng, pricePence: pence,
                                         stale: stale))
    }

    /// "BP", "JET" as brands write themselves; "TESCO" as "Tesco".
    static func brand(_ name: String) -> String {
        name.count <= 3 ? name.uppercased() : name.capitalized
    }

    private func client() throws -> RequestClient {
        try RequestClient(context: context, endpoint: lookup, timeout: .seconds(1), retries: 0)
    }

    /// "12 Portholme Road, Selby" -> "Portholme Road".
    static func street(_ address: String) -> String {
        let first = address.split(separator: ",").first.map(String.init) ?? address
        return first.drop { $0.isNumber || $0 == " " }.trimmingCharacters(in: .whitespaces)
    }

    static func folded(_ text: String) -> String {
        text.lowercased().filter { $0.isLetter || $0.isNumber }
    }
}
