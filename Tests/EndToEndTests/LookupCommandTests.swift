import Foundation
import ServiceTesting
import Testing

/// `fuelboard lookup`: fuel words, the CLI's own checks of its values, and the table it prints.
@Suite(.serialized)
struct LookupCommandTests {
    private static let selby = "\(FeedFixtures.selbyPoint.lat),\(FeedFixtures.selbyPoint.lng)"

    /// A stack with the Selby feed, its prices timed `lastUpdated` (Europe/London).
    private static func stack(lastUpdated: String = "29/11/2026 06:30:00") throws -> DataPathStack {
        let stack = try DataPathStack()
        let feed = FeedFixtures.feed(FeedFixtures.selby, lastUpdated: lastUpdated)
        let file = try stack.writeFeed(feed, name: "tesco")
        try stack.waitForLookupVersion(try stack.ingestFile(file, retailer: "tesco").version)
        return stack
    }

    private static func lookup(_ stack: DataPathStack, _ arguments: [String]) throws -> CommandRun {
        try CommandRun.fuelboard(["lookup", "--at", selby, "--lookup", stack.lookupEndpoint ?? ""] + arguments)
    }

    @Test func lookup_withAFuelWord_answersAsWithItsCode() throws {
        let stack = try Self.stack()
        let diesel = try Self.lookup(stack, ["--fuel", "B7"])
        #expect(diesel.status == 0)
        #expect(diesel.stdout.contains("139.9p"))
        for word in ["diesel", "Diesel", "DIESEL", "b7"] {
            let run = try Self.lookup(stack, ["--fuel", word])
            #expect(run.status == 0, "\(word): \(run.stderr)")
            #expect(run.stdout == diesel.stdout, "\(word)")
        }
        let unleaded = try Self.lookup(stack, ["--fuel", "E10"])
        #expect(unleaded.stdout.contains("131.9p"))
        for word in ["unleaded", "petrol", "Petrol"] {
            #expect(try Self.lookup(stack, ["--fuel", word]).stdout == unleaded.stdout, "\(word)")
        }
    }

    /// LNG,LAT typed by mistake finds nothing (a point off Somalia); stderr says which way round
    /// `--at` reads, as `ask` does. Nothing found inside the UK gets no such hint.
    @Test func lookup_withItsCoordinatesSwapped_findsNothing_andSaysWhichWayRoundAtReads() throws {
        let stack = try Self.stack()
        let point = FeedFixtures.selbyPoint
        let swapped = try CommandRun.fuelboard(["lookup", "--at", "\(point.lng),\(point.lat)", "--fuel", "B7",
                                                "--lookup", stack.lookupEndpoint ?? ""])
        #expect(swapped.status == 0)
        #expect(swapped.stdout.hasPrefix("No station selling B7"))
        #expect(swapped.stderrLines == ["--at is LAT,LNG (latitude first): did you mean --at \(point.lat),\(point.lng)?"])
        let farAway = try CommandRun.fuelboard(["lookup", "--at", "51.5,-0.12", "--fuel", "B7", "--radius", "1",
                                                "--lookup", stack.lookupEndpoint ?? ""])
        #expect(farAway.stdout.hasPrefix("No station selling B7") && farAway.stderr.isEmpty)
    }

    /// A price far from its retailer's others is marked, and the mark explained under the table.
    @Test func lookup_marksOutlierPrices_andSaysWhatTheMarksMean() throws {
        let stack = try DataPathStack()
        let file = try stack.writeFeed(FeedFixtures.feed(FeedFixtures.outliers), name: "mfg")
        try stack.waitForLookupVersion(try stack.ingestFile(file, retailer: "mfg").version)
        let run = try Self.lookup(stack, ["--fuel", "B7", "--limit", "5"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("119.9p*"), "\(run.stdout)")
        #expect(run.stdout.contains("239.9p+"), "\(run.stdout)")
        #expect(run.stdout.contains("190.9p ") && !run.stdout.contains("190.9p*"), "\(run.stdout)")
        #expect(run.stdout.contains("* more than 30p below the median of its retailer's feed: may be out of date"))
        #expect(run.stdout.contains("+ more than 35p above the median of its retailer's feed"))
        let unleaded = try Self.lookup(stack, ["--fuel", "E10", "--limit", "5"])
        #expect(!unleaded.stdout.contains("median"), "no unleaded price is an outlier: \(unleaded.stdout)")
    }

    /// The largest radius and limit fuel-lookup accepts pass the CLI's own checks.
    @Test func lookup_atTheLargestRadiusAndLimitTheServiceAccepts_answers() throws {
        let stack = try Self.stack()
        let run = try Self.lookup(stack, ["--fuel", "B7", "--radius", "100", "--limit", "50"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("139.9p"))
    }

    /// Hours are two digits in every row (`00:05`, not `0:05` beside `10:55`).
    @Test func lookup_printsFeedTimesWithTwoDigitHours() throws {
        let stack = try Self.stack(lastUpdated: "30/11/2026 00:05:00")
        let run = try Self.lookup(stack, ["--fuel", "B7"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("30 Nov 2026 00:05"), "\(run.stdout)")
        #expect(!run.stdout.contains(" 0:05"))
    }

    @Test func lookup_whenAtIsNotACoordinate_saysWhatItGot() throws {
        let run = try CommandRun.fuelboard(["lookup", "--fuel", "B7", "--at", "abc",
                                    "--lookup", try unservedEndpoint()])
        #expect(run.status == 64)
        #expect(run.stderrLines == ["fuelboard: --at: expected LAT,LNG, got 'abc'"])
    }

    /// Values the CLI can check itself never reach fuel-lookup (nobody serves its endpoint here, so
    /// a request sent would end as unavailable, 69): one line on stderr and 64.
    @Test(arguments: [
        ["--at", "91,-1.0"], ["--at", "53.7,-181"], ["--at", "nan,0"],
        ["--radius", "0"], ["--radius", "-3"], ["--radius", "101"], ["--radius", "inf"],
        ["--limit", "0"], ["--limit", "51"], ["--limit", "2.5"], ["--limit", "many"],
        ["--max-age-hours", "0"], ["--fuel", "hydrogen"],
    ])
    func lookup_whenAValueIsOutOfRange_refusesItBeforeAnyRequest(option: [String]) throws {
        var arguments = ["lookup", "--fuel", "B7", "--at", Self.selby, "--lookup", try unservedEndpoint(),
                         "--timeout", "200ms"]
        if let index = arguments.firstIndex(of: option[0]) {
            arguments[index + 1] = option[1]
        } else {
            arguments += option
        }
        let run = try CommandRun.fuelboard(arguments)
        #expect(run.status == 64, "\(option): \(run.stderr)")
        #expect(run.stderrLines.count == 1, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("fuelboard: \(option[0]): "), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }
}
