@testable import FuelboardCLI
import Messages
import Testing

/// After a router load test, only the users it asked as are forgotten (all 5,000 were, one erase
/// from disk each, for 20-30 s after a run of 20 asks).
struct LoadTestUsersTests {
    @Test func theUsersForgotten_areThoseAsked() throws {
        let here = [Coordinate(lat: 53.7, lng: -1.07)]
        let plan = try LoadPlan.make(target: .router, type: .assistantAsk, points: here, count: 10_000, seed: 1,
                                     radius: 5, fuel: "B7")
        #expect(plan.users(of: [0..<20]) == Array(0..<20))
        // A second thread's requests start far on: request 1,000,000,007 is body 7 (of 10,000), user 7.
        let secondThread: Range<Int> = 1_000_000_007..<1_000_000_009
        #expect(plan.users(of: [0..<3, secondThread]) == [0, 1, 2, 7, 8])
        #expect(plan.users(of: [0..<50_000]).count == LoadPlan.users)
        #expect(plan.users(of: []).isEmpty)
        let lookups = try LoadPlan.make(target: .lookup, type: .lookupCheapest, points: here, count: 10, seed: 1,
                                        radius: 5, fuel: "B7")
        #expect(lookups.users(of: [0..<20]).isEmpty)
    }
}
