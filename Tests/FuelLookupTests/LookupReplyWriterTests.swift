import Foundation
@testable import FuelLookup
import Messages
import Testing

/// The hand-written lookup reply must be byte for byte what the encoder makes of the same answer.
struct LookupReplyWriterTests {
    /// Fixture stations plus a few whose text needs escaping or is not ASCII, and whose coordinates
    /// have six decimals (the writer's digit-by-digit path) rather than full precision.
    private static func stations() -> [Station] {
        var stations = StationFixtures(count: 1500, seed: 41).stations()
        let awkward = ["Quote \"Corner\" Garage", "Back\\slash Road", "Tab\there", "Line\nbreak", "Café Ünïcode",
                       "Control \u{01} char", "Emoji ⛽ Services"]
        for (offset, text) in awkward.enumerated() {
            let location = Coordinate(lat: 52.5 + Double(offset) * 0.001234, lng: -1.123456 - Double(offset) * 0.01)
            var station = TestStations.make(id: "awkward/\(offset)", location: location,
                                            prices: [.b7: Price(tenths: 1459 + Int32(offset)), .e10: Price(tenths: 1399)])
            station.name = text
            station.address = text + ", 1 High St"
            station.brand = offset.isMultiple(of: 2) ? text : "Esso"
            stations.append(station)
        }
        return stations
    }

    private static func handler(_ stations: [Station]) -> LookupHandler {
        let holder = IndexHolder()
        holder.swap(PriceIndex(stations: stations), version: 42)
        return LookupHandler(holder: holder)
    }

    private static func expectSameBytes(_ answer: LookupAnswer) throws {
        let written = LookupReplyWriter.write(answer)
        let encoded = try JSONCoding.encode(answer.reply)
        #expect(written == Array(encoded),
                "writer: \(String(decoding: written, as: UTF8.self))\nencoder: \(String(decoding: encoded, as: UTF8.self))")
    }

    @Test func cheapestReplies_matchTheEncoderByteForByte() throws {
        let stations = Self.stations()
        let handler = Self.handler(stations)
        let points = StationFixtures(count: 1500, seed: 41).queryPoints(300, near: stations, seed: 7)
            + [Coordinate(lat: 52.5, lng: -1.12)]
        var nonEmpty = 0
        for (offset, point) in points.enumerated() {
            let request = LookupRequest(fuel: offset.isMultiple(of: 2) ? "B7" : "E10", lat: point.lat, lng: point.lng,
                                        radiusMiles: 10, limit: 1 + offset % 5)
            let answer = try handler.cheapestAnswer(request, now: StationFixtures.now)
            if !answer.matches.isEmpty { nonEmpty += 1 }
            try Self.expectSameBytes(answer)
        }
        #expect(nonEmpty > 100)
    }

    @Test func nearestReplies_withAndWithoutAFuel_matchTheEncoderByteForByte() throws {
        let stations = Self.stations()
        let handler = Self.handler(stations)
        let points = StationFixtures(count: 1500, seed: 41).queryPoints(200, near: stations, seed: 8)
        for (offset, point) in points.enumerated() {
            let request = LookupRequest(fuel: offset.isMultiple(of: 3) ? nil : "E10", lat: point.lat, lng: point.lng,
                                        radiusMiles: 20, limit: 3)
            try Self.expectSameBytes(try handler.nearestAnswer(request, now: StationFixtures.now))
        }
    }

    @Test func awkwardStationText_isEscapedAsTheEncoderDoes() throws {
        let handler = Self.handler(Self.stations())
        let request = LookupRequest(fuel: "B7", lat: 52.5, lng: -1.12, radiusMiles: 5, limit: 10)
        let answer = try handler.cheapestAnswer(request, now: StationFixtures.now)
        #expect(answer.matches.filter { $0.station.id.hasPrefix("awkward/") }.count == 7)
        try Self.expectSameBytes(answer)
        let decoded = try JSONCoding.decode(LookupReply.self, from: Data(LookupReplyWriter.write(answer)))
        #expect(decoded.results.map(\.station.name).contains("Tab\there"))
    }

    @Test func anEmptyAnswer_isWrittenAsTheEncoderDoes() throws {
        let handler = Self.handler(Self.stations())
        let request = LookupRequest(fuel: "SDV", lat: 58.5, lng: -5.6, radiusMiles: 0.1, limit: 1)
        let answer = try handler.cheapestAnswer(request, now: StationFixtures.now)
        #expect(answer.matches.isEmpty)
        try Self.expectSameBytes(answer)
    }
}

/// The cache of stations' reply text: hits give the same bytes, and text never outlives its index.
struct ReplyTextCacheTests {
    @Test func aSecondAnswer_fromTheCache_isTheSameBytes() throws {
        let stations = StationFixtures(count: 500, seed: 51).stations()
        let holder = IndexHolder()
        holder.swap(PriceIndex(stations: stations), version: 1)
        let handler = LookupHandler(holder: holder)
        let cache = ReplyTextCache()
        let point = try #require(stations.compactMap(\.location).first)
        let request = LookupRequest(fuel: nil, lat: point.lat, lng: point.lng, radiusMiles: 30, limit: 10)
        let answer = try handler.nearestAnswer(request, now: StationFixtures.now)
        let first = LookupReplyWriter.write(answer, cache: cache)
        let second = LookupReplyWriter.write(answer, cache: cache)
        #expect(cache.misses == 10 && cache.hits == 10)
        #expect(first == second)
        #expect(first == Array(try JSONCoding.encode(answer.reply)))
    }

    @Test func aNewIndex_withTheSameStationCount_neverGetsTheOldText() throws {
        var stations = StationFixtures(count: 300, unlocatedShare: 0, seed: 52).stations()
        let cache = ReplyTextCache()
        let holder = IndexHolder()
        let handler = LookupHandler(holder: holder)
        let point = try #require(stations.first?.location)
        let request = LookupRequest(fuel: nil, lat: point.lat, lng: point.lng, radiusMiles: 50, limit: 5)
        for round in 0..<4 {
            for offset in stations.indices { stations[offset].name = "Round \(round) station \(offset)" }
            holder.swap(PriceIndex(stations: stations), version: UInt64(round + 1))
            let answer = try handler.nearestAnswer(request, now: StationFixtures.now)
            #expect(LookupReplyWriter.write(answer, cache: cache) == Array(try JSONCoding.encode(answer.reply)))
        }
    }

    @Test func aFullCache_startsAgain_andStaysWithinItsCapacity() throws {
        let stations = StationFixtures(count: 2000, seed: 53).stations()
        let holder = IndexHolder()
        holder.swap(PriceIndex(stations: stations), version: 1)
        let handler = LookupHandler(holder: holder)
        let cache = ReplyTextCache(capacityBytes: 4096)
        for point in StationFixtures(count: 2000, seed: 53).queryPoints(200, near: stations, seed: 9) {
            let request = LookupRequest(fuel: nil, lat: point.lat, lng: point.lng, radiusMiles: 20, limit: 5)
            let answer = try handler.nearestAnswer(request, now: StationFixtures.now)
            #expect(LookupReplyWriter.write(answer, cache: cache) == Array(try JSONCoding.encode(answer.reply)))
        }
        #expect(cache.byteCount <= 4096 + 2 * 4 * stations.count)
        #expect(cache.misses > 100)
    }
}
