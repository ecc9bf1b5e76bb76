import Foundation
import Messages
import Testing

/// The hand-coded messages must write exactly what `JSONCoding`'s encoder writes, read back
/// exactly what its decoder reads, and leave every shape they do not take to the decoder.
struct HandCodingTests {
    /// Foundation's encoder with `JSONCoding`'s configuration: the reference.
    private static func reference(_ value: some Encodable) throws -> String {
        String(decoding: try JSONCoding.makeEncoder().encode(value), as: UTF8.self)
    }

    private static func handWritten(_ value: some JSONWritable) -> String {
        var writer = JSONWriter(capacity: 8)
        value.writeJSON(to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    /// Reads `text` by hand (nil when the hand reader does not take it).
    private static func handRead<Value: JSONReadable>(_ type: Value.Type, _ text: String) -> Value? {
        let bytes = Array(text.utf8)
        #expect(StrictJSON.check(bytes) == nil, "test input must be JSON: \(text)")
        return bytes.withUnsafeBufferPointer { try? Value(json: JSONSlice(bytes: $0, range: 0..<$0.count)) }
    }

    /// Writes `value` by hand and with the encoder and compares; reads the encoder's text by hand
    /// and checks the encoder writes what was read as it wrote the original.
    private static func roundTrip<Value: JSONWritable & JSONReadable>(_ value: Value) throws {
        let expected = try reference(value)
        #expect(handWritten(value) == expected)
        let read = try #require(handRead(Value.self, expected), "hand reader refused \(expected)")
        #expect(try reference(read) == expected)
    }

    // MARK: - Values with awkward parts

    private static let texts = ["", "Tesco Selby", "quote \" and back\\slash", "slash / kept", "tab\tnew\nline\r",
                                "Café ⛽ £1.399", "\u{00}\u{1F}\u{7F}", "emoji 👩‍👩‍👧 and \u{2028}",
                                String(repeating: "long ", count: 60)]
    private static let numbers: [Double] = [0, -0.0, 1, 5, 0.1, 139.9, 2.3, 52.123456, -1.000001, 1e-7, 1e15,
                                            123456789.123, 1 / 3, 0x1p53, -179.99999]
    private static let dates = [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_760_000_117),
                                Date(timeIntervalSince1970: 951_782_400),  // 2000-02-29
                                Date(timeIntervalSince1970: -1), Date(timeIntervalSince1970: 4_102_444_799)]

    private static func pick<T>(_ values: [T], _ random: inout some RandomNumberGenerator) -> T {
        values[Int.random(in: 0..<values.count, using: &random)]
    }

    private static func maybe<T>(_ values: [T], _ random: inout some RandomNumberGenerator) -> T? {
        Bool.random(using: &random) ? pick(values, &random) : nil
    }

    private static func station(_ random: inout some RandomNumberGenerator) -> StationSummary {
        StationSummary(id: pick(texts, &random), retailer: pick(texts, &random), brand: pick(texts, &random),
                       name: pick(texts, &random), address: pick(texts, &random), postcode: pick(texts, &random),
                       lat: pick(numbers, &random), lng: pick(numbers, &random))
    }

    private static func snippet(_ random: inout some RandomNumberGenerator) -> Snippet {
        Snippet(title: pick(texts, &random), subtitle: maybe(texts, &random), freshness: maybe(texts, &random),
                price: maybe(texts, &random), id: maybe(texts, &random), postcode: maybe(texts, &random),
                lat: maybe(numbers, &random), lng: maybe(numbers, &random), pricePence: maybe(numbers, &random),
                stale: maybe([true, false], &random), priceOutlier: maybe(PriceOutlier.allCases, &random))
    }

    // MARK: - Writing and reading

    @Test func renderMessages_roundTripAsTheEncoderWritesThem() throws {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            var request = RenderRequest(outcome: Self.pick(DialogOutcome.allCases, &random))
            request.locale = Self.maybe(Self.texts, &random)
            request.now = Self.maybe(Self.dates, &random)
            request.fuel = Self.maybe(Self.texts, &random)
            request.station = Bool.random(using: &random) ? Self.station(&random) : nil
            request.pricePence = Self.maybe(Self.numbers, &random)
            request.distanceMiles = Self.maybe(Self.numbers, &random)
            request.updated = Self.maybe(Self.dates, &random)
            request.locationAt = Self.maybe(Self.dates, &random)
            request.radiusMiles = Self.maybe(Self.numbers, &random)
            request.unit = Self.maybe(DistanceUnit.allCases, &random)
            request.word = Self.maybe(Self.texts, &random)
            request.priceOutlier = Self.maybe(PriceOutlier.allCases, &random)
            request.defaultSettings = Self.maybe([true, false], &random)
            try Self.roundTrip(request)

            let reply = RenderReply(dialog: Self.pick(Self.texts, &random), value: Self.maybe(Self.texts, &random),
                                    snippet: Bool.random(using: &random) ? Self.snippet(&random) : nil,
                                    opensURL: Self.maybe(["https://www.google.com/maps/dir/?api=1&destination=1,2"],
                                                         &random))
            try Self.roundTrip(reply)
        }
    }

    @Test func locationMessages_roundTripAsTheEncoderWritesThem() throws {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            try Self.roundTrip(LocationPutRequest(user: Self.pick(Self.texts, &random), lat: Self.pick(Self.numbers, &random),
                                                  lng: Self.pick(Self.numbers, &random), at: Self.maybe(Self.dates, &random)))
            try Self.roundTrip(UserRequest(user: Self.pick(Self.texts, &random)))
            try Self.roundTrip(Preferences(radiusMiles: Self.pick(Self.numbers, &random),
                                           unit: Self.pick(DistanceUnit.allCases, &random)))
            try Self.roundTrip(LocationReply(lat: Self.pick(Self.numbers, &random), lng: Self.pick(Self.numbers, &random),
                                             at: Self.pick(Self.dates, &random), ageSeconds: Self.pick(Self.numbers, &random)))
            try Self.roundTrip(Coordinate(lat: Self.pick(Self.numbers, &random), lng: Self.pick(Self.numbers, &random)))
            try Self.roundTrip(Self.station(&random))
        }
    }

    @Test func lookupMessages_areWrittenAndReadAsTheEncoderDoes() throws {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let request = LookupRequest(fuel: Self.maybe(FuelCode.allCases.map(\.rawValue), &random),
                                        lat: Self.pick(Self.numbers, &random), lng: Self.pick(Self.numbers, &random),
                                        radiusMiles: Self.maybe(Self.numbers, &random),
                                        limit: Self.maybe([1, 5, 0, -3, 1_000_000], &random),
                                        maxAgeHours: Self.maybe(Self.numbers, &random),
                                        brand: Self.maybe(Self.texts, &random), retailer: Self.maybe(Self.texts, &random),
                                        preferFresh: Self.maybe([true, false], &random))
            #expect(Self.handWritten(request) == (try Self.reference(request)))

            let results = (0..<Int.random(in: 0...3, using: &random)).map { _ in
                LookupResult(station: Self.station(&random), pricePence: Self.maybe(Self.numbers, &random),
                             fuel: Self.maybe(["B7", "E10"], &random), distanceMiles: Self.pick(Self.numbers, &random),
                             updated: Self.pick(Self.dates, &random),
                             priceOutlier: Self.maybe(PriceOutlier.allCases, &random))
            }
            let reply = LookupReply(results: results, indexedStations: Int.random(in: 0...2_000_000, using: &random),
                                    version: UInt64.random(in: 0...1 << 40, using: &random))
            let text = try Self.reference(reply)
            let read = try #require(Self.handRead(LookupReply.self, text), "hand reader refused \(text)")
            #expect(try Self.reference(read) == text)
        }
    }

    @Test func assistantReply_isWrittenAsTheEncoderWritesIt() throws {
        var random = SystemRandomNumberGenerator()
        let parameterSets: [[String: JSONValue]] = [[:], ["fuel": .string("B7")], ["miles": .null],
                                                     ["miles": .number(10.5)], ["unit": .string("km")],
                                                     ["fuel": .string("E10"), "miles": .number(3), "a10": .bool(true),
                                                      "a9": .array([.null, .string("x\"y")]), "B": .object([:])]]
        for _ in 0..<300 {
            let reply = AssistantReply(
                code: Self.pick(AssistantCode.allCases, &random), dialog: Self.pick(Self.texts, &random),
                value: Self.maybe(Self.texts, &random), snippet: Bool.random(using: &random) ? Self.snippet(&random) : nil,
                opensURL: Self.maybe(Self.texts, &random), session: Self.maybe(Self.texts, &random),
                intent: Self.maybe(["CheapestFuel", "Help"], &random), parameters: Self.maybe(parameterSets, &random),
                outcome: Self.maybe(DialogOutcome.allCases, &random), needs: Self.maybe(["fuel", "miles"], &random),
                service: Self.maybe(Self.texts, &random), result: Self.maybe(PluginResultCode.allCases, &random),
                options: Self.maybe([[], [PluginOption(value: "a", title: "A", synonyms: ["x", "y\\"]),
                                          PluginOption(value: "b", title: "B")]], &random))
            #expect(Self.handWritten(reply) == (try Self.reference(reply)))
        }
    }

    @Test func askRequest_isReadAsTheDecoderReadsIt() throws {
        let text = #"{ "utterance" : "Ask FuelBoard for the cheapest \"diesel\"", "user":"u\u00e91","#
            + #""location":{"lng":-1.5,"lat":53.8},"session":null,"locale":"en-GB","now":"2025-10-09T09:45:17Z","extra":[1,{}]}"#
        let hand = try #require(Self.handRead(AssistantAskRequest.self, text))
        let decoded = try JSONCoding.makeDecoder().decode(AssistantAskRequest.self, from: Data(text.utf8))
        #expect(hand.user == decoded.user && hand.utterance == decoded.utterance)
        #expect(hand.location == decoded.location && hand.session == nil && hand.locale == "en-GB")
        #expect(hand.now == decoded.now && hand.now == Date(timeIntervalSince1970: 1_760_003_117))
    }

    @Test func snapshots_areReadAsTheDecoderReadsThem() throws {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            let stations = (0..<Int.random(in: 0...20, using: &random)).map { _ in
                var prices: FuelPrices = [:]
                for fuel in FuelCode.allCases where Bool.random(using: &random) {
                    prices[fuel] = Price(tenths: Int32.random(in: 1...30_000, using: &random))
                }
                return Station(id: Self.pick(Self.texts, &random), retailer: Self.pick(Self.texts, &random),
                               siteId: Self.pick(Self.texts, &random), brand: Self.pick(Self.texts, &random),
                               name: Self.pick(Self.texts, &random), address: Self.pick(Self.texts, &random),
                               postcode: Self.pick(Self.texts, &random),
                               location: Bool.random(using: &random)
                                   ? Coordinate(lat: Self.pick(Self.numbers, &random), lng: Self.pick(Self.numbers, &random))
                                   : nil,
                               reportedLatitude: Self.maybe(Self.numbers, &random),
                               reportedLongitude: Self.maybe(Self.numbers, &random),
                               prices: prices, updated: Self.pick(Self.dates, &random))
            }
            let state = RetailerState(version: UInt64.random(in: 0...1 << 40, using: &random),
                                      retailer: Self.pick(Self.texts, &random), updated: Self.pick(Self.dates, &random),
                                      stations: stations)
            let entries = [SnapshotReply.Entry(retailer: "asda", version: 3, stationCount: 790)]
            for reply in [SnapshotReply(version: 9, state: state), SnapshotReply(version: 9, retailers: entries)] {
                let text = try Self.reference(reply)
                #expect(Self.handWritten(reply) == text)
                let read = try #require(Self.handRead(SnapshotReply.self, text), "hand reader refused \(text.prefix(300))")
                #expect(try Self.reference(read) == text)
            }
        }
        // A price under a key that is no fuel code is left to the decoder (which refuses it).
        let odd = #"{"version":1,"state":{"version":1,"retailer":"x","updated":"2025-10-09T09:45:17Z","stations":[{"#
            + #""id":"x/1","retailer":"x","siteId":"1","brand":"B","name":"N","address":"A","postcode":"P","#
            + #""prices":{"LPG":80.1},"updated":"2025-10-09T09:45:17Z"}]}}"#
        #expect(Self.handRead(SnapshotReply.self, odd) == nil)
        #expect(throws: (any Error).self) { try JSONCoding.decode(SnapshotReply.self, from: Data(odd.utf8)) }
    }

    // MARK: - Times

    @Test func times_areReadAsTheDecoderReadsThem() throws {
        var random = SystemRandomNumberGenerator()
        var texts = ["2000-02-29T12:00:00Z", "1970-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "1583-01-01T00:00:00Z"]
        for _ in 0..<400 {
            let seconds = Int.random(in: -12_000_000_000...250_000_000_000, using: &random)
            texts.append(CivilCalendar.iso8601(Date(timeIntervalSince1970: Double(seconds))))
        }
        for text in texts {
            let quoted = "\"\(text)\""
            let hand = Array(quoted.utf8).withUnsafeBufferPointer {
                try? JSONSlice(bytes: $0, range: 0..<$0.count).date()
            }
            #expect(hand == JSONCoding.parseISO8601(text), "time \(text)")
        }
    }

    @Test func unusualTimes_goToTheSameParserAsTheDecoder() throws {
        // Fractional seconds, offsets, days that do not exist, a leap second: not the fast form.
        for text in ["2025-10-09T09:45:17.250Z", "2025-10-09T10:45:17+01:00", "2025-02-30T00:00:00Z",
                     "2024-02-29T00:00:00Z", "2023-02-29T00:00:00Z", "2025-06-30T23:59:60Z", "2025-13-01T00:00:00Z",
                     "2025-10-09 09:45:17Z", "1500-01-01T00:00:00Z", "not a time"] {
            let body = #"{"outcome":"found","updated":"\#(text)"}"#
            let viaCoding = try? JSONCoding.decode(RenderRequest.self, from: Data(body.utf8))
            let viaDecoder = try? JSONCoding.makeDecoder().decode(RenderRequest.self, from: Data(body.utf8))
            #expect(viaCoding?.updated == viaDecoder?.updated, "time \(text)")
            #expect((viaCoding == nil) == (viaDecoder == nil), "time \(text)")
        }
    }

    // MARK: - What the hand readers leave to the decoder

    @Test func shapesTheReadersDoNotTake_areDecodedOrRefusedAsBefore() throws {
        let cases: [(String, Bool)] = [
            (#"{"radiusMiles":"5","unit":"km"}"#, false),     // a string for a number
            (#"{"radiusMiles":5}"#, false),                   // a field missing
            (#"{"radiusMiles":5,"unit":"furlongs"}"#, false), // no such unit
            (#"{"radiusMiles":null,"unit":"km"}"#, false),    // null for a required number
            (#"{"radiusMiles":5e0,"unit":"km"}"#, true),      // an exponent
            (#"[5, "km"]"#, false),                            // not an object
        ]
        for (text, decodes) in cases {
            let hand = Self.handRead(Preferences.self, text)
            let viaCoding = Result { try JSONCoding.decode(Preferences.self, from: Data(text.utf8)) }
            let viaDecoder = Result { try JSONCoding.makeDecoder().decode(Preferences.self, from: Data(text.utf8)) }
            if decodes {
                #expect(try viaCoding.get() == viaDecoder.get(), "\(text)")
            } else {
                #expect(hand == nil, "hand reader took \(text)")
                #expect(throws: DecodingError.self) { try viaCoding.get() }
            }
        }
        // An integer written with a fraction is left to the decoder, which gives what it gave.
        let reply = #"{"results":[],"indexedStations":5.0,"version":1}"#
        #expect(Self.handRead(LookupReply.self, reply) == nil)
        let viaCoding = try? JSONCoding.decode(LookupReply.self, from: Data(reply.utf8))
        let viaDecoder = try? JSONCoding.makeDecoder().decode(LookupReply.self, from: Data(reply.utf8))
        #expect(viaCoding?.indexedStations == viaDecoder?.indexedStations)
    }

    @Test func whatTheDecoderReadsItsOwnWay_isLeftToIt() throws {
        // A key given twice (refused by JSONCoding; allowed, the decoder keeps the first), a key
        // with escapes (one that does not even resolve), a zero written with an exponent or
        // underflowing (the decoder refuses it).
        let twice = #"{"user":"a","user":"b"}"#
        #expect(Self.handRead(UserRequest.self, twice) == nil)
        #expect(throws: StrictJSON.RepeatedName.self) { try JSONCoding.decode(UserRequest.self, from: Data(twice.utf8)) }
        #expect(try JSONCoding.decode(UserRequest.self, from: Data(twice.utf8), allowingRepeatedNames: true).user
                == JSONCoding.makeDecoder().decode(UserRequest.self, from: Data(twice.utf8)).user)
        #expect(Self.handRead(Coordinate.self, #"{"lat":1,"l\u0061t":2,"lng":3}"#) == nil)
        #expect(Self.handRead(Coordinate.self, #"{"lat":1,"lng":2,"x\ud800":1}"#) == nil)
        for zero in ["1e-400", "-1e-400", "0e1", "0.00e2", "2.4703282292062327e-324"] {
            let text = #"{"lat":\#(zero),"lng":5}"#
            #expect(Self.handRead(Coordinate.self, text) == nil, "\(zero)")
            let viaCoding = try? JSONCoding.decode(Coordinate.self, from: Data(text.utf8))
            let viaDecoder = try? JSONCoding.makeDecoder().decode(Coordinate.self, from: Data(text.utf8))
            #expect(viaCoding == viaDecoder, "\(zero)")
        }
        #expect(Self.handRead(Coordinate.self, #"{"lat":0,"lng":-0.0}"#) == Coordinate(lat: 0, lng: -0.0))
    }

    @Test func aNumberThatIsNotFinite_isRefusedAsTheEncoderRefusesIt() {
        #expect(throws: (any Error).self) { try JSONCoding.encode(Coordinate(lat: 1, lng: .nan)) }
        #expect(throws: (any Error).self) { try JSONCoding.encode(Preferences(radiusMiles: .infinity, unit: .km)) }
        #expect((try? JSONCoding.encode(Coordinate(lat: 1, lng: 2))) != nil)
    }

    @Test func whitespace_isWhatFoundationCountsAsWhitespace() {
        let foundation = CharacterSet.whitespacesAndNewlines
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            #expect(scalar.isWhitespaceOrNewline == foundation.contains(scalar), "U+\(String(value, radix: 16))")
        }
        for text in ["", " ", "\u{200B}\t\n", " a ", "\u{3000}Tesco Selby\u{200B}", "x"] {
            #expect(text.isBlank == text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
            #expect(text.trimmingWhitespace == text.trimmingCharacters(in: .whitespacesAndNewlines))
        }
    }

    @Test func invalidJSON_isNeverReadByHand() {
        // Foundation's decoder is more lenient than StrictJSON; its answer stays the answer.
        let text = #"{"radiusMiles":5,"unit":"km",}"#
        let viaCoding = try? JSONCoding.decode(Preferences.self, from: Data(text.utf8))
        let viaDecoder = try? JSONCoding.makeDecoder().decode(Preferences.self, from: Data(text.utf8))
        #expect(viaCoding == viaDecoder)
    }
}
