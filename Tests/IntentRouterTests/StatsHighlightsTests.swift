@testable import FuelboardCLI
import Messages
import Testing

/// `fuelboard stats` prints, under each service's summary, the figures an operator looks at first.
struct StatsHighlightsTests {
    private static let memory: JSONValue = .object(["rssBytes": .number(30 * 1_048_576)])

    @Test func priceIngest_showsItsFeeds_stations_andTheOldestFeed() {
        let feed: (Double, Double) -> JSONValue = { stations, age in
            .object(["stations": .number(stations), "feedAgeHours": .number(age)])
        }
        let line = StatsHighlights.line("price-ingest", ["feeds": .array([feed(1500, 2.5), feed(600, 41.25)]),
                                                         "memory": Self.memory])
        #expect(line == "    2 feeds, 2,100 stations, oldest feed 41.2 h old; RSS 30 MiB")
    }

    /// Why commits fail, and a store file gone, were in --json only (operator QA).
    @Test func aStoreInTrouble_isSaidWithItsCause() {
        let failing = StatsHighlights.line("price-ingest", ["feeds": .array([]), "commitFailures": .number(10),
                                                            "lastCommitError": .string("database or disk is full"),
                                                            "storeFileGone": .bool(false)])
        #expect(failing == "    0 feeds, 0 stations; COMMITS FAILED 10: database or disk is full")
        let gone = StatsHighlights.line("location-cache", ["usersStored": .number(2), "locationsStored": .number(2),
                                                           "storeFileGone": .bool(true)])
        #expect(gone == "    2 users, 2 locations; STORE FILE GONE (deleted or replaced while running): restart it")
    }

    @Test func fuelLookup_saysWhetherItsIndexIsInStepWithPriceIngest() {
        let synced = StatsHighlights.line("fuel-lookup", ["version": .number(13), "stations": .number(10000),
                                                          "synced": .bool(true)])
        #expect(synced == "    index v13: 10,000 stations, in step with price-ingest")
        let behind = StatsHighlights.line("fuel-lookup", ["version": .number(2), "stations": .number(5),
                                                          "synced": .bool(false)])
        #expect(behind == "    index v2: 5 stations, NOT ready (waiting for price-ingest's first snapshot)")
        let deaf = StatsHighlights.line("fuel-lookup", ["version": .number(2), "stations": .number(5),
                                                        "synced": .bool(false), "ingestHeardSecondsAgo": .number(30)])
        #expect(deaf == "    index v2: 5 stations, NOT ready (nothing ever from price-ingest's publisher: check --ingest-pub)")
        // Its snapshot requests failing is said with their error, and the flag to check is --ingest.
        let snapshotless = StatsHighlights.line("fuel-lookup", ["version": .number(0), "stations": .number(0),
                                                                "synced": .bool(false), "ingestHeardSecondsAgo": .number(30),
                                                                "lastSyncError": .string("no reply within 10 s")])
        #expect(snapshotless == "    index v0: 0 stations, NOT ready (no snapshot from price-ingest (no reply within 10 s): "
            + "check --ingest)")
    }

    /// Any service: replies that never left, and clients noted as not reading theirs (a client
    /// that never reads used to stall the service unseen).
    @Test func anyService_countsUndeliveredReplies_andNamesClientsNotReading() {
        let quiet = StatsHighlights.line("location-cache", ["repliesNotDelivered": .number(0),
                                                            "clientsNotReading": .number(0), "memory": Self.memory])
        #expect(quiet == "    RSS 30 MiB")
        let gone = StatsHighlights.line("location-cache", ["repliesNotDelivered": .number(12),
                                                           "clientsNotReading": .number(0)])
        #expect(gone == "    replies not delivered 12")
        let stuck = StatsHighlights.line("fuel-lookup", ["repliesNotDelivered": .number(70_412),
                                                         "clientsNotReading": .number(1), "memory": Self.memory])
        #expect(stuck == "    replies not delivered 70,412 (1 client NOT READING); RSS 30 MiB")
    }

    /// Any service: large replies refused to clients not reading theirs, and what is held unread now.
    @Test func anyService_countsLargeRepliesRefused() {
        let none = StatsHighlights.line("fuel-lookup", ["largeRepliesRefused": .number(0),
                                                        "unreadReplyBytes": .number(9_000_000)])
        #expect(none == nil)
        let refused = StatsHighlights.line("fuel-lookup", ["largeRepliesRefused": .number(2_138),
                                                           "unreadReplyBytes": .number(69_935_370), "memory": Self.memory])
        #expect(refused == "    large replies REFUSED 2,138 (clients not reading theirs), 67 MiB unread now; RSS 30 MiB")
        let past = StatsHighlights.line("fuel-lookup", ["largeRepliesRefused": .number(5), "unreadReplyBytes": .number(0)])
        #expect(past == "    large replies REFUSED 5 (clients not reading theirs)")
    }

    /// A feed whose fetches all fail has no age: it was in no summary, nor any Prometheus series
    /// an alert could use (operator walkthrough). Now it is named, and `failing` is a figure.
    @Test func priceIngest_namesItsFailingFeeds() {
        let feeds: JSONValue = .array([
            .object(["retailer": .string("tesco"), "stations": .number(500), "feedAgeHours": .number(3),
                     "failing": .bool(false)]),
            .object(["retailer": .string("esso"), "stations": .number(0), "failing": .bool(true)]),
        ])
        let line = StatsHighlights.line("price-ingest", ["feeds": feeds])
        #expect(line == "    2 feeds, 500 stations, oldest feed 3.0 h old, FAILING: esso", "\(line ?? "")")
    }

    /// A feed no longer in --feeds, whose last fetch failed, stayed FAILING for good (and so did a
    /// Prometheus alert on it): it is told apart from a polled feed that fails (QA).
    @Test func priceIngest_tellsAFailingPolledFeedFromAnUnpolledOneWhoseLastIngestFailed() {
        let feeds: JSONValue = .array([
            .object(["retailer": .string("tesco"), "stations": .number(500), "failing": .bool(true),
                     "polled": .bool(true)]),
            .object(["retailer": .string("dead"), "stations": .number(0), "failing": .bool(true),
                     "polled": .bool(false)]),
            .object(["retailer": .string("asda"), "stations": .number(9), "failing": .bool(false),
                     "polled": .bool(false)]),
        ])
        let line = StatsHighlights.line("price-ingest", ["feeds": feeds])
        #expect(line == "    3 feeds, 509 stations, FAILING: tesco, last ingest failed (not polled): dead", "\(line ?? "")")
    }

    @Test func fuelLookup_whenPriceIngestIsSilentOrResyncing_saysNotInStepAndWhy() {
        let held: [String: JSONValue] = ["version": .number(13), "stations": .number(10000), "synced": .bool(true)]
        let fresh = held.merging(["inStep": .bool(true), "ingestHeardSecondsAgo": .number(0)]) { $1 }
        #expect(StatsHighlights.line("fuel-lookup", fresh) == "    index v13: 10,000 stations, in step with price-ingest")
        let silent = held.merging(["inStep": .bool(false), "ingestHeardSecondsAgo": .number(95)]) { $1 }
        #expect(StatsHighlights.line("fuel-lookup", silent)
                == "    index v13: 10,000 stations, NOT in step (nothing from price-ingest for 95 s)")
        let resyncing = held.merging(["inStep": .bool(false), "ingestHeardSecondsAgo": .number(1)]) { $1 }
        #expect(StatsHighlights.line("fuel-lookup", resyncing)
                == "    index v13: 10,000 stations, NOT in step (resynchronising from price-ingest)")
    }

    @Test func intentRouter_showsAsksByOutcome_misses_andPlugInTroubleOnlyWhenThereIsSome() {
        let details: [String: JSONValue] = [
            "asksByOutcome": .object(["found": .number(1200), "nothingInRange": .number(34)]),
            "deadlineMisses": .number(0),
            "backendTimeouts": .object(["lookup": .number(2), "dialog": .number(1)]),
            "plugins": .object(["services": .number(2), "instances": .number(3), "timeouts": .number(4),
                                "expiries": .number(0)]),
        ]
        #expect(StatsHighlights.line("intent-router", details) == "    asks 1,234 (found 1,200, nothingInRange 34); "
            + "deadline misses 0; backend timeouts 3; plug-ins: 2 services, 3 instances (timeouts 4)")
    }

    @Test func aServiceWithoutTheseFigures_getsNoLine() {
        #expect(StatsHighlights.line("location-cache", [:]) == nil)
        #expect(StatsHighlights.line("something-else", ["stations": .number(1)]) == nil)
    }

    @Test func intentRouter_saysWhichBackendIsDown_andHowManyAnswersFellBack() {
        let details: [String: JSONValue] = [
            "backendDown": .object(["dialog": .number(1), "lookup": .number(0)]),
            "backendUnavailable": .object(["dialog": .number(39762)]),
            "fallbackDialogs": .number(39762),
        ]
        #expect(StatsHighlights.line("intent-router", details)
            == "    BACKEND DOWN: dialog; backend calls unavailable 39,762; fallback dialogs 39,762")
    }

    @Test func ages_overTwoDays_areInDays_andCountsOfOne_areSingular() {
        #expect(StatsHighlights.age(hours: 10026.4) == "417.8 days")
        #expect(StatsHighlights.age(hours: 41.25) == "41.2 h")
        #expect(StatsHighlights.plural(1, "service") == "1 service" && StatsHighlights.plural(0, "service") == "0 services")
    }
}
