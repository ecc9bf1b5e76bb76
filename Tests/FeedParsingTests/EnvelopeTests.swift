import Foundation
import Testing
import FeedParsing
import Messages

struct EnvelopeTests {
    @Test func parse_whenBytesAreNotJSON_throwsNotJSON() {
        #expect(throws: FeedError.notJSON(hint: nil)) { try FeedFixtures.parse("{\"stations\": [") }
        #expect(throws: FeedError.notJSON(hint: "it is empty")) { try FeedFixtures.parse(" \n") }
        #expect(throws: FeedError.notJSON(hint: nil)) { try FeedParser().parse(Data([0xFF, 0xFE, 0x00]), retailer: "asda",
                                                                                fetchedAt: FeedFixtures.fetchedAt) }
    }

    /// An HTML error page served with 200, or a gzip body without its Content-Encoding, was only
    /// "not valid JSON" (QA): the message says what came instead.
    @Test(arguments: [
        ("<!DOCTYPE html><html><body>Service Unavailable</body></html>",
         "the feed is not valid JSON (it is an HTML page, such as a server's error or login page)"),
        ("  <HTML><body>login</body></HTML>", "the feed is not valid JSON (it is an HTML page, such as a server's error or login page)"),
        ("<?xml version=\"1.0\"?><stations/>", "the feed is not valid JSON (it starts with '<': XML or HTML, not JSON)"),
    ])
    func bytesThatAreNotJSON_sayWhatTheyLookLike(text: String, message: String) {
        do {
            _ = try FeedFixtures.parse(text)
            Issue.record("taken")
        } catch {
            #expect(error.message == message)
        }
    }

    @Test func aGzipBodyWithoutItsContentEncoding_isSaidToBeGzip() {
        do {
            _ = try FeedParser().parse(Data([0x1F, 0x8B, 0x08, 0x00, 0x00]), retailer: "asda", fetchedAt: FeedFixtures.fetchedAt)
            Issue.record("taken")
        } catch {
            #expect(error.message.hasSuffix("(it is gzip-compressed data, sent without its Content-Encoding)"))
        }
    }

    @Test(arguments: ["[]", "\"stations\"", "42", "null", "true"])
    func parse_whenTopLevelIsNotAnObject_throwsNotAnObject(json: String) {
        #expect {
            try FeedFixtures.parse(json)
        } throws: { error in
            guard case FeedError.notAnObject = error else { return false }
            return true
        }
    }

    @Test func parse_whenStationsKeyMissing_throwsMissingStations() {
        #expect(throws: FeedError.missingStations) {
            try FeedFixtures.parse(#"{"last_updated": "09/10/2025 11:00:00"}"#)
        }
    }

    @Test(arguments: [#"{"stations": {}}"#, #"{"stations": "none"}"#, #"{"stations": null}"#, #"{"stations": 3}"#])
    func parse_whenStationsIsNotAList_throwsStationsNotAList(json: String) {
        #expect {
            try FeedFixtures.parse(json)
        } throws: { error in
            guard case FeedError.stationsNotAList = error else { return false }
            return true
        }
    }

    @Test func parse_whenDocumentLargerThanLimit_throwsTooLarge() {
        var parser = FeedParser()
        parser.maxBytes = 64
        let json = FeedFixtures.feed([FeedFixtures.station()])
        #expect(throws: FeedError.tooLarge(bytes: json.utf8.count, limit: 64)) {
            try FeedFixtures.parse(json, parser: parser)
        }
    }

    @Test func parse_whenMoreStationsThanLimit_throwsTooManyStations() {
        var parser = FeedParser()
        parser.maxStations = 2
        let json = FeedFixtures.feed(Array(repeating: FeedFixtures.station(), count: 3))
        #expect(throws: FeedError.tooManyStations(count: 3, limit: 2)) { try FeedFixtures.parse(json, parser: parser) }
    }

    @Test func parse_whenRetailerNameInvalid_throwsBadRetailerName() {
        #expect(throws: FeedError.badRetailerName("  ")) {
            try FeedFixtures.parse(FeedFixtures.feed([]), retailer: "  ")
        }
    }

    @Test func parse_whenStationsListEmpty_returnsEmptyFeed() throws {
        let feed = try FeedFixtures.parse(FeedFixtures.feed([]))
        #expect(feed.stations.isEmpty)
        #expect(feed.refusedCount == 0)
        #expect(feed.updated == FeedFixtures.defaultUpdated)
    }

    @Test func parse_whenLastUpdatedFollowsStations_readsItByName() throws {
        let json = "{\"stations\": [\(FeedFixtures.station())], \"last_updated\": \"09/10/2025 11:00:00\"}"
        let feed = try FeedFixtures.parse(json)
        #expect(feed.updated == FeedFixtures.defaultUpdated)
        #expect(feed.warnings.isEmpty)
    }

    @Test func parse_whenRecordIsNotAnObject_refusesOnlyThatRecord() throws {
        let json = FeedFixtures.feed([FeedFixtures.station(), "\"oops\"", "[1, 2]", "null", "7"])
        let feed = try FeedFixtures.parse(json)
        #expect(feed.acceptedCount == 1)
        #expect(feed.count(RecordRefusal.notAnObject) == 4)
        #expect(feed.refusedCount == 4)
        #expect(feed.refusedExamples[RecordRefusal.notAnObject.rawValue]?.first
                == "stations[1] is the string \"oops\", not an object")
    }

    @Test func feedError_message_isHumanAndMapsToWireCodes() {
        #expect(FeedError.missingStations.message == "the feed has no \"stations\" list")
        #expect(FeedError.tooLarge(bytes: 10, limit: 5).serviceError.code == .tooLarge)
        #expect(FeedError.notJSON(hint: nil).serviceError.code == .badRequest)
        #expect(FeedError.notAnObject(found: "a list").message.contains("found a list"))
    }
}
