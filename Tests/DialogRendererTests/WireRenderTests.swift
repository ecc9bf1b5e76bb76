@testable import DialogRenderer
import Foundation
import Messages
import SampleFeeds
import Testing

/// Rendering straight from the wire gives, byte for byte, the reply JSON of the general path
/// (`RenderRequest` read from the same body, `render`, `RenderReply.writeJSON`), or declines.
struct WireRenderTests {
    static let now = Date(timeIntervalSince1970: 1_760_000_000)  // 2025-10-09T08:53:20Z

    /// The general path's reply body for a JSON body, or nil where it answers with an error.
    static func generalReply(_ body: String, _ handler: RenderHandler) -> [UInt8]? {
        guard let request = try? JSONCoding.decode(RenderRequest.self, from: Data(body.utf8)),
              let reply = try? handler.render(request, now: now) else { return nil }
        var writer = JSONWriter()
        reply.writeJSON(to: &writer)
        return writer.bytes
    }

    /// The wire path's reply body for a JSON body, sent in a checked frame with `id` as its id's
    /// JSON text (nil: declined).
    static func wireReply(_ body: String, _ handler: RenderHandler, _ requests: CheckedRequests,
                          id: String = "7") throws -> [UInt8]? {
        handler.wireReplyJSON(to: try requests.request(body: body, id: id), now: now)
    }

    static func json(_ request: RenderRequest) throws -> String {
        String(decoding: try JSONCoding.encode(request), as: UTF8.self)
    }

    static let welshHandler: RenderHandler = {
        let welsh = """
            {"outcomes": {"found": {"dialog": "Y {fuel}: {station} ({postcode}) am {price}, {distance}, {freshness}.",
                                    "value": "{station} \\"{price}\\"\\n{distance}"},
                          "nothingInRange": {"dialog": "Dim {fuelTitle} o fewn {radius}."}},
             "snippet": {"subtitle": "{fuelTitle} · {distance} · {postcode}"},
             "freshness": {"today": "am {time}", "stale": "Hen\\tbrisiau."},
             "clock": {"time": "{hour24}:{minute}", "months": {"10": "Hyd"}},
             "numbers": {"decimalSeparator": ","},
             "units": {"price": "{pounds} £", "miles": {"one": "{number} filltir", "other": "{number} milltir"}}}
            """
        do {
            let files = ["en-GB.json": try Fixtures.baseFile, "cy-GB.json": Data(welsh.utf8)]
            guard let london = FeedAge.londonCalendar() else { fatalError("no Europe/London time zone") }
            return RenderHandler(catalog: try TemplateCatalog(files: files), calendar: london)
        } catch {
            fatalError("test catalog does not load: \(error)")
        }
    }()

    /// Requests as the router sends them, over every outcome and many values.
    static func routerRequests(count: Int, seed: UInt64) -> [RenderRequest] {
        var generator = SplitMix64(seed: seed)
        func pick<T>(_ values: [T]) -> T { values[generator.next(in: 0...(values.count - 1))] }
        // The location's time has its own stream, so the other fields are drawn as before it was added.
        var placeGenerator = SplitMix64(seed: ~seed)
        func pickPlace(_ values: [Date?]) -> Date? { values[placeGenerator.next(in: 0...(values.count - 1))] }
        var outlierGenerator = SplitMix64(seed: seed &+ 0x5EED)
        func pickOutlier() -> PriceOutlier? { [nil, nil, .low, .high][outlierGenerator.next(in: 0...3)] }
        func pickDefaults() -> Bool? { [nil, nil, true, false][outlierGenerator.next(in: 0...3)] }
        let names = ["Tesco Selby", "  Texaco Greenwich ", "Esso Tŷ Croes", "Sainsbury's Nine Elms", "\u{00A0}BP",
                     "Shell\u{2003}", "Asda 🚗", " ", "\u{3000}", "Tab\there", "Quote \"Q\"", "Back\\slash"]
        var requests: [RenderRequest] = []
        for _ in 0..<count {
            let station = StationSummary(
                id: pick(["tesco/2567", "bp/1", "esso\"1"]), retailer: "r", brand: "b", name: pick(names),
                address: "a", postcode: pick(["YO8 4QH", "", "LL63 5TF"]),
                lat: pick([53.768681, -0.00001, 51.5, 52, 91, 0.0001, 1e-7, -33.123456789]),
                lng: pick([-1.089549, -0.0021, 0, -0.0, 180, -181, 12.5]))
            let age = Double(generator.next(in: 0...40_000_000)) + pick([0, 0.25, 0.9999999])
            let updated = now.addingTimeInterval(-age)
            requests.append(RenderRequest(
                outcome: pick(DialogOutcome.allCases + [.found, .found, .directions]),
                locale: pick([nil, "en-GB", "cy-GB", "cy", "fr-FR", "CY_gb"]),
                now: pick([nil, now, now.addingTimeInterval(3600.5)]),
                fuel: pick(["B7", "E10", "e5", "SDV", "sdv", "hydrogen", nil]),
                station: pick([station, station, nil]),
                pricePence: pick([139.9, 145, 99.9, 0.1, 1234.5, 151.89999999999998, -1, 0, 10_000, nil]),
                distanceMiles: pick([2.3, 0.96, 1.0, 1.04, 0, 12.05, 4.449, -0.5, 12_501, nil]),
                updated: pick([updated, updated, nil]),
                radiusMiles: pick([5, 1, 2.5, 0.62, 10, 1e12, 0, nil]),
                unit: pick([nil, .miles, .km]),
                word: pick(["hydrogen", "  hydrogen\n", "a\"b", String(repeating: "x", count: 61), "x y", nil]),
                locationAt: pickPlace([nil, nil, now.addingTimeInterval(-age), now.addingTimeInterval(-age / 1000),
                                       now.addingTimeInterval(-3600), now.addingTimeInterval(7200.25)]),
                priceOutlier: pickOutlier()))
            requests[requests.count - 1].defaultSettings = pickDefaults()
        }
        return requests
    }

    @Test(arguments: [0, 1])
    func routerRequests_renderToTheGeneralPathsBytes(handlerIndex: Int) throws {
        let requests = try CheckedRequests()
        let handler = handlerIndex == 0 ? Fixtures.handler : Self.welshHandler
        var taken = 0
        let longWord = String(repeating: "x", count: RenderFacts.maxWordLength + 1)
        for request in Self.routerRequests(count: 3000, seed: UInt64(11 + handlerIndex)) {
            let body = try Self.json(request)
            let general = Self.generalReply(body, handler)
            if let wire = try Self.wireReply(body, handler, requests) {
                taken += 1
                #expect(wire == general, "\(body)")
            } else {
                // Declined only for an error, a text written with escapes, or a word to clip.
                #expect(general == nil || body.contains("\\") || body.contains(longWord), "\(body)")
            }
        }
        #expect(taken > 500)
    }

    /// An app name with characters JSON escapes, said through `{app}`: the wire path writes what the
    /// general path writes.
    @Test func anAppNameNeedingEscapes_isWrittenAsTheGeneralPathWritesIt() throws {
        let text = #"{"outcomes": {"found": {"dialog": "{app} says: {station} at {price}."}}}"#
        let london = try #require(FeedAge.londonCalendar())
        let handler = RenderHandler(catalog: try TemplateCatalog(
            files: ["en-GB.json": try Fixtures.baseFile, "cy-GB.json": Data(text.utf8)],
            appName: "Pal \"Q\" \\ Tŷ"), calendar: london)
        let requests = try CheckedRequests()
        let station = StationSummary(id: "tesco/1", retailer: "tesco", brand: "Tesco", name: "Tesco Selby",
                                     address: "a", postcode: "YO8 4QH", lat: 53.7, lng: -1.0)
        let body = try Self.json(RenderRequest(outcome: .found, locale: "cy-GB", now: Self.now, fuel: "B7",
                                               station: station, pricePence: 139.9, distanceMiles: 2,
                                               updated: Self.now, radiusMiles: 5))
        let wire = try #require(try Self.wireReply(body, handler, requests))
        #expect(wire == Self.generalReply(body, handler))
        let reply = try JSONCoding.decode(RenderReply.self, from: Data(wire))
        #expect(reply.dialog.hasPrefix(#"Pal "Q" \ Tŷ says: Tesco Selby at "#), "\(reply.dialog)")
    }

    @Test func plainFoundRequests_areTakenFromTheWire() throws {
        let requests = try CheckedRequests()
        for outcome in [DialogOutcome.found, .directions] {
            for locale in [nil, "en-GB", "cy-GB", "fr"] {
                var request = try Fixtures.stationRequest(outcome, locale: locale)
                request.now = nil
                let body = try Self.json(request)
                let wire = try #require(try Self.wireReply(body, Self.welshHandler, requests), "\(body)")
                #expect(wire == Self.generalReply(body, Self.welshHandler))
            }
        }
        for outcome in DialogOutcome.allCases where outcome.requiredFields.isEmpty {
            let body = #"{"outcome":"\#(outcome.rawValue)"}"#
            #expect(try Self.wireReply(body, Fixtures.handler, requests) == Self.generalReply(body, Fixtures.handler))
            #expect(try Self.wireReply(body, Fixtures.handler, requests) != nil)
        }
    }

    static let station = #"{"address":"A","brand":"B","id":"x/1","lat":53.5,"lng":-1.25,"name":"Tesco","#
        + #""postcode":"P1 1AA","retailer":"r"}"#

    static func found(_ extra: String = "", station: String = station) -> String {
        #"{"distanceMiles":2.3,"fuel":"B7","outcome":"found","pricePence":139.9,"station":\#(station),"#
            + #""updated":"2025-10-09T05:30:00Z"\#(extra)}"#
    }

    /// `found()` with its fuel written as `fuel` (JSON text).
    static func withFuel(_ fuel: String) -> String {
        found().replacingOccurrences(of: #""fuel":"B7""#, with: #""fuel":"# + fuel)
    }

    /// A number beyond a double in a valid frame: the reply says a value cannot be read, where it
    /// said "The given data was not valid JSON." (the frame is JSON; the strict check took it).
    @Test func aNumberTooLargeToRead_isSaidSo_notCalledInvalidJSON() throws {
        let requests = try CheckedRequests(serving: Fixtures.handler)
        for body in [#"{"outcome":"noLocation","radiusMiles":1e999}"#,
                     Self.found().replacingOccurrences(of: "139.9", with: "-1e400")] {
            let reply = requests.dispatch(frame: #"{"v":1,"id":"big","type":"dialog.render","body":\#(body)}"#)
            #expect(reply.contains(#""code":"bad_request""#) && reply.contains(#""id":"big""#), "\(reply)")
            #expect(reply.contains("a value cannot be read (a number a double cannot hold") && !reply.contains("not valid JSON"),
                    "\(reply)")
        }
    }

    /// A member given twice never reaches a reader: the frame is refused first (the wire reader
    /// and the general path had to agree on which one counted).
    @Test(arguments: [found(#","outcome":"found""#), found(#","fuel":"\u0042\u0037""#),
                      found(station: station.replacingOccurrences(of: #""brand":"B""#, with: #""brand":"B","brand":"C""#))])
    func bodiesNamingAMemberTwice_areRefusedBeforeAnyReader(body: String) throws {
        let requests = try CheckedRequests()
        let error = try #require(throws: ServiceError.self) { try requests.request(body: body, id: "7") }
        #expect(error.code == .badRequest && error.message.contains("twice in one object"), "\(error)")
    }

    @Test(arguments: [
        found(#","extra":1"#), found(#","ext\u0072a":1"#), found(#","unit":"KM""#),
        found(#","locale":5"#), found(#","locale":"cy\u002dGB""#), withFuel(#""\u017fdv""#),
        found(station: station.replacingOccurrences(of: #""name":"Tesco""#, with: #""name":"Te\"sco""#)),
        found(station: station.replacingOccurrences(of: #""name":"Tesco""#, with: #""name":" ""#)),
        found(station: station.replacingOccurrences(of: #""brand":"B""#, with: #""brand":null"#)),
        found(station: station.replacingOccurrences(of: #""lat":53.5"#, with: #""lat":"53.5""#)),
        found(station: station.replacingOccurrences(of: #""lat":53.5"#, with: #""lat":91"#)),
        found(station: station.replacingOccurrences(of: #""brand":"B""#, with: #""brand":"B","x":[1]"#)),
        found().replacingOccurrences(of: "139.9", with: "null"),
        found().replacingOccurrences(of: #""2025-10-09T05:30:00Z""#, with: "1760000000"),
        found(#","locationAt":null"#), found(#","locationAt":1760000000"#), found(#","locationAt":"yesterday""#),
        found(#","locationAt":"2025-10-09T01:30:00.5+01:00""#),
        found(#","priceOutlier":"low""#), found(#","priceOutlier":"high""#), found(#","priceOutlier":null"#),
        found(#","priceOutlier":"medium""#), found(#","priceOutlier":"LOW""#), found(#","priceOutlier":true"#),
        found(#","defaultSettings":true"#), found(#","defaultSettings":false"#), found(#","defaultSettings":null"#),
        found(#","defaultSettings":"true""#), found(#","defaultSettings":1"#),
        #"{"outcome":"unsupportedFuel","word":"  hydrogen"}"#, #"{"outcome":"unitSet"}"#, #"{"outcome":null}"#,
        #"{"outcome":"Found"}"#, "{}", "[]", #""found""#,
    ])
    func unusualBodies_areDeclinedOrRenderedAsTheGeneralPathDoes(body: String) throws {
        let requests = try CheckedRequests()
        #expect(StrictJSON.check(Array(body.utf8)) == nil, "the test body must be JSON")
        let wire = try Self.wireReply(body, Self.welshHandler, requests)
        #expect(wire == nil || wire == Self.generalReply(body, Self.welshHandler))
    }

    @Test(arguments: [
        found(#","extra":1"#), withFuel(#""\u017fdv""#),
        found(station: station.replacingOccurrences(of: #""name":"Tesco""#, with: #""name":"Te\"sco""#)),
        found(station: station.replacingOccurrences(of: #""lat":53.5"#, with: #""lat":91"#)),
        found().replacingOccurrences(of: #""distanceMiles":2.3"#, with: #""distanceMiles":-1"#), #"{"outcome":"unitSet"}"#,
    ])
    func bodiesTheWireReaderCannotBeSureOf_areDeclined(body: String) throws {
        let requests = try CheckedRequests()
        #expect(try Self.wireReply(body, Fixtures.handler, requests) == nil)
    }

    @Test func whitespaceAndMemberOrder_doNotMatter() throws {
        let requests = try CheckedRequests()
        let spaced = " " + Self.found().replacingOccurrences(of: #",""#, with: " ,\n\t\"")
            .replacingOccurrences(of: #"":"#, with: "\" : ") + "\n"
        let reordered = #"{"updated":"2025-10-09T05:30:00Z","station":\#(Self.station),"outcome":"found","#
            + #""fuel":"b7","pricePence":139.9,"distanceMiles":2.3}"#
        for body in [spaced, reordered] {
            let wire = try #require(try Self.wireReply(body, Fixtures.handler, requests), "\(body)")
            #expect(wire == Self.generalReply(body, Fixtures.handler))
        }
    }

    @Test(arguments: [0, 1])
    func catalogTextsForUTF8_matchTextsForAString(handlerIndex: Int) throws {
        let catalog = (handlerIndex == 0 ? Fixtures.handler : Self.welshHandler).catalog
        let locales = ["cy-GB", "en-GB", "cy", "CY-GB", "cy_GB", " cy-GB", "\tcy_gb ", "EN_gb", "en-US", "fr", "",
                       " ", "\t", "-", "--", "-cy", "cy-", "Cy-Gb-x", "\u{0B}cy", "cy\u{0C}", "\u{212A}", "zz-ZZ-x",
                       "c\u{00FF}", "\u{00A0}cy-GB", "CY\u{2003}"]
        for locale in locales {
            let bytes = Array(locale.utf8)
            let viaBytes = bytes.withUnsafeBufferPointer { catalog.texts(forUTF8: $0).locale }
            #expect(viaBytes == catalog.texts(for: locale).locale, "\(locale)")
        }
        #expect(catalog.texts(forUTF8: nil).locale == "en-GB")
    }
}
