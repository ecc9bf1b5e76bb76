import Foundation
import IntentRouter
import Messages
import Testing

/// A radius said without a unit word is in the user's own unit, and the radius limits are said
/// in it, through the router and the real location-cache and dialog-renderer.
@Suite(.serialized)
struct RouterRadiusUnitTests {
    @Test func kmUser_bareNumber_isStoredAsKilometresAndReadBackInThem() throws {
        let services = try RealServices()
        defer { services.stop() }
        _ = try services.ask("Ask FuelBoard to use kilometres")
        let set = try services.ask("Ask FuelBoard to set my search radius to 10")
        #expect(set.outcome == .radiusSet)
        #expect(set.dialog.contains("within 10 km"), "\(set.dialog)")
        #expect(set.parameters == ["miles": .number(6.21)])
        #expect(try services.preferences().radiusMiles == 10 / DistanceUnit.kilometresPerMile)
        // A unit word keeps its unit.
        _ = try services.ask("Ask FuelBoard to set my search radius to 10 miles")
        #expect(try services.preferences().radiusMiles == 10)
    }

    /// The question gives the limits in kilometres, also in the router's own English, and the
    /// bare answer is in kilometres.
    @Test(arguments: [false, true])
    func kmUser_radiusQuestion_saysKilometresAndTheAnswerIsInThem(dialogDown: Bool) throws {
        let services = try RealServices(dialogDown: dialogDown)
        defer { services.stop() }
        _ = try services.ask("Ask FuelBoard to use kilometres")
        let question = try services.ask("Ask FuelBoard to set my search radius")
        #expect(question.code == .needsValue)
        #expect(question.dialog.contains("2 to 80"), "\(question.dialog)")
        #expect(question.dialog.contains("80 km"), "in the user's unit, renderer up or down: \(question.dialog)")
        let answer = try services.ask("15", session: question.session)
        #expect(answer.outcome == .radiusSet)
        #expect(answer.dialog.contains("within 15 km"), "\(answer.dialog)")
        #expect(try services.preferences().radiusMiles == 15 / DistanceUnit.kilometresPerMile)
    }

    /// A search asking too far in the user's unit is refused when handled, and the conversation
    /// stays for a nearer one: after an answer, that answer; a new search, that search. "within 20"
    /// after the refusal was "didn't catch that" (walkthrough).
    @Test func milesUser_searchTooFar_isRefused_andTheConversationStays() throws {
        let services = try RealServices()
        defer { services.stop() }
        let answer = try services.ask("Ask FuelBoard for the cheapest diesel near me", at: RealServices.selby)
        let session = try #require(answer.session)
        let refused = try services.ask("within 60", session: session)
        #expect(refused.code == .failure && refused.outcome == .radiusOutOfRange, "\(refused.dialog)")
        #expect(refused.dialog.contains("between 1 and 50 miles"), "\(refused.dialog)")
        #expect(refused.session == session)
        let directions = try services.ask("take me there", session: session)
        #expect(directions.snippet?.id == "test/far" && directions.opensURL != nil, "the answer is still followed up")

        let fresh = try services.ask("Ask FuelBoard for the cheapest diesel within 60", at: RealServices.selby)
        #expect(fresh.outcome == .radiusOutOfRange, "\(fresh.dialog)")
        let nearer = try services.ask("within 1", session: try #require(fresh.session) as String)
        #expect(nearer.outcome == .found && nearer.snippet?.id == "test/near", "\(nearer.dialog)")

        let withUnit = try services.ask("Ask FuelBoard for the cheapest diesel within 60 miles", at: RealServices.selby)
        #expect(withUnit.outcome == .radiusOutOfRange, "\(withUnit.dialog)")
        let ten = try services.ask("within 10 miles then", session: try #require(withUnit.session) as String)
        #expect(ten.outcome == .found && ten.snippet?.id == "test/far", "\(ten.dialog)")
    }

    /// Read back as said: a tenth of a mile made 2 km "1.9 km", 3 km "3.1 km", 7 km "6.9 km".
    @Test func kmUser_smallRadii_readBackAsSaid() throws {
        let services = try RealServices()
        defer { services.stop() }
        _ = try services.ask("Ask FuelBoard to use kilometres")
        for number in [2, 3, 7] {
            let set = try services.ask("Ask FuelBoard to set my search radius to \(number)")
            #expect(set.dialog.contains("within \(number) km"), "\(set.dialog)")
        }
    }

    @Test func kmUser_bareOne_isRefusedInKilometres_andEightyIsAllowed() throws {
        let services = try RealServices()
        defer { services.stop() }
        _ = try services.ask("Ask FuelBoard to use kilometres")
        let refused = try services.ask("Ask FuelBoard to set my search radius to 1")
        #expect(refused.code == .failure)
        #expect(refused.outcome == .radiusOutOfRange)
        #expect(refused.dialog.contains("between 2 and 80 km"), "\(refused.dialog)")
        #expect(try services.preferences().radiusMiles == Preferences.defaultRadiusMiles)
        let eighty = try services.ask("Ask FuelBoard to set my search radius to 80")
        #expect(eighty.outcome == .radiusSet, "\(eighty.dialog)")
        #expect(try services.preferences().radiusMiles == 80 / DistanceUnit.kilometresPerMile)
    }

    @Test func milesUser_bareNumbersAreMiles_andKilometresStayKilometres() throws {
        let services = try RealServices()
        defer { services.stop() }
        let question = try services.ask("Ask FuelBoard to set my search radius")
        #expect(question.dialog.contains("1 to 50 miles"), "\(question.dialog)")
        let set = try services.ask("ten", session: question.session)
        #expect(set.dialog.contains("within 10 miles"), "\(set.dialog)")
        #expect(try services.preferences().radiusMiles == 10)
        let refused = try services.ask("Ask FuelBoard to set my search radius to 60")
        #expect(refused.outcome == .radiusOutOfRange)
        #expect(refused.dialog.contains("between 1 and 50 miles"), "\(refused.dialog)")
        let kilometres = try services.ask("Ask FuelBoard to set my search radius to 5 km")
        #expect(kilometres.outcome == .radiusSet)
        #expect(try services.preferences().radiusMiles == 5 / DistanceUnit.kilometresPerMile)
    }

    /// "What's my search radius?" reads the settings back (it was not understood), in the user's
    /// unit; with location-cache down it says so rather than the defaults.
    @Test(arguments: [false, true])
    func mySettings_areReadBack(dialogDown: Bool) throws {
        let services = try RealServices(dialogDown: dialogDown)
        defer { services.stop() }
        _ = try services.ask("Ask FuelBoard to set my search radius to 10 miles")
        _ = try services.ask("Ask FuelBoard to use kilometres")
        let reply = try services.ask("Ask FuelBoard what's my search radius")
        #expect(reply.intent == "MySettings")
        #expect(reply.outcome == .settingsRead)
        #expect(reply.dialog == "I look for fuel within 16 km of you and give distances in kilometres.",
                "\(reply.dialog)")
    }

    /// "60" to "how far?" is read in the user's unit when handled: refused for a miles user with
    /// the question still open (it ended there: review), taken for a kilometres user.
    @Test func aBareRadius_refusedInTheUsersUnit_leavesTheQuestionOpen() throws {
        let services = try RealServices()
        defer { services.stop() }
        let question = try services.ask("Ask FuelBoard to set my search radius")
        let session = try #require(question.session)
        let refused = try services.ask("60", session: session)
        #expect(refused.code == .needsValue && refused.outcome == .radiusOutOfRange, "\(refused.dialog)")
        #expect(refused.session == session && refused.needs == "miles")
        let set = try services.ask("20", session: session)
        #expect(set.outcome == .radiusSet && set.session == nil, "\(set.dialog)")
        #expect(try services.preferences().radiusMiles == 20)

        _ = try services.ask("Ask FuelBoard to use kilometres")
        let again = try services.ask("Ask FuelBoard to set my search radius")
        let taken = try services.ask("60", session: try #require(again.session) as String)
        #expect(taken.outcome == .radiusSet && taken.session == nil, "60 km: \(taken.dialog)")
    }

    @Test func mySettings_whenLocationCacheHangs_saysItCannotReachThem() throws {
        let services = try RealServices(locationHangs: true)
        defer { services.stop() }
        let reply = try services.ask("Ask FuelBoard what's my search radius")
        #expect(reply.outcome == .settingsUnreadable, "\(reply.dialog)")
        #expect(reply.dialog == "I can't reach your saved settings right now. Please try again in a minute.")
        #expect(reply.code == .failure)
    }
}
