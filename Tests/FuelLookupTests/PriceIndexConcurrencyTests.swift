import FuelLookup
import Messages
import Testing

struct PriceIndexConcurrencyTests {
    @Test func lookups_fromManyTasksAtOnce_answerAsWhenAskedOneByOne() async {
        let fixtures = StationFixtures(count: 2000, seed: 81)
        let stations = fixtures.stations()
        let index = PriceIndex(stations: stations)
        let points = fixtures.queryPoints(300, near: stations, seed: 82)
        let expected = points.map { index.cheapest(fuel: .b7, at: $0, radiusMiles: 5, limit: 3) }
        let answers = await withTaskGroup(of: [[Match]].self) { group in
            for _ in 0 ..< 4 {
                group.addTask { points.map { index.cheapest(fuel: .b7, at: $0, radiusMiles: 5, limit: 3) } }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers.count == 4)
        #expect(answers.allSatisfy { $0 == expected })
        #expect(expected.contains { !$0.isEmpty })
    }
}
