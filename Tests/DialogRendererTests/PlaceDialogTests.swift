@testable import DialogRenderer
import Foundation
import Messages
import Testing

/// `{where}`: an answer made from a stored location over an hour old says when the user was there.
struct PlaceDialogTests {
    /// The fixtures' `now` is 2025-10-09T12:00:00+01:00.
    static let ages: [(locationAt: String?, place: String)] = [
        (nil, "you"),
        ("2025-10-09T11:30:00+01:00", "you"),
        ("2025-10-09T13:00:00+01:00", "you"),  // observed after now: a clock ahead of ours
        ("2025-10-09T10:30:00+01:00", "where you were an hour ago"),
        ("2025-10-09T09:00:00+01:00", "where you were 3 hours ago"),
        ("2025-10-08T13:00:00+01:00", "where you were 23 hours ago"),
        ("2025-10-08T10:00:00+01:00", "where you were yesterday"),
        ("2025-10-06T18:00:00+01:00", "where you were on 6 Oct"),
        ("2024-11-25T18:00:00Z", "where you were on 25 Nov 2024"),
    ]

    static func request(_ outcome: DialogOutcome, locationAt: String?) throws -> RenderRequest {
        var request = try Fixtures.stationRequest(outcome)
        request.radiusMiles = 5
        request.locationAt = try locationAt.map(Fixtures.time)
        return request
    }

    @Test(arguments: ages)
    func found_saysWhereTheSearchWasMadeFrom(locationAt: String?, place: String) throws {
        let reply = try Fixtures.render(Self.request(.found, locationAt: locationAt))
        #expect(reply.dialog == "The cheapest diesel near \(place) is Tesco Selby at £1.399, 2.3 miles away — "
            + "prices as of 6:30 AM.")
    }

    @Test(arguments: ages)
    func directions_sayWhereTheSearchWasMadeFrom(locationAt: String?, place: String) throws {
        let reply = try Fixtures.render(Self.request(.directions, locationAt: locationAt))
        #expect(reply.dialog == "Here are directions to Tesco Selby, the cheapest diesel near \(place) at £1.399 — "
            + "prices as of 6:30 AM.")
    }

    @Test(arguments: ages)
    func nothingInRange_saysWhereTheSearchWasMadeFrom(locationAt: String?, place: String) throws {
        let reply = try Fixtures.render(Self.request(.nothingInRange, locationAt: locationAt))
        #expect(reply.dialog == "I don't have diesel prices for any station within 5 miles of \(place).")
    }

    /// The wire reader takes `locationAt` and renders it as the general path does.
    @Test func locationAt_isReadFromTheWireAsTheGeneralPathReadsIt() throws {
        let requests = try CheckedRequests()
        for outcome in [DialogOutcome.found, .directions, .nothingInRange] {
            for age in Self.ages {
                let body = try WireRenderTests.json(Self.request(outcome, locationAt: age.locationAt))
                let wire = try #require(try WireRenderTests.wireReply(body, Fixtures.handler, requests), "\(body)")
                #expect(wire == WireRenderTests.generalReply(body, Fixtures.handler), "\(body)")
                #expect(String(decoding: wire, as: UTF8.self).contains(age.place), "\(body)")
            }
        }
    }

    @Test func aLocale_canSayItsOwnWay() throws {
        let welsh = #"{"place": {"hoursAgo": "lle roeddech chi {hours} awr yn ôl"}}"#
        let catalog = try TemplateCatalog(files: ["en-GB.json": try Fixtures.baseFile, "cy-GB.json": Data(welsh.utf8)])
        let handler = RenderHandler(catalog: catalog, calendar: try #require(FeedAge.londonCalendar()))
        var request = try Self.request(.nothingInRange, locationAt: "2025-10-09T09:00:00+01:00")
        request.locale = "cy-GB"
        let reply = try handler.render(request)
        #expect(reply.dialog.hasSuffix("within 5 miles of lle roeddech chi 3 awr yn ôl."))
    }

    @Test func hoursPlaceholder_isOnlyForTheHoursText() throws {
        let bad = #"{"place": {"current": "you {hours}"}}"#
        #expect(throws: TemplateError.self) {
            try TemplateCatalog(files: ["en-GB.json": try Fixtures.baseFile, "cy-GB.json": Data(bad.utf8)])
        }
    }
}
