import Messages
import Testing

/// Who is told "FuelBoard only has fuel prices for the UK": never a user in the UK.
struct UKAreaTests {
    @Test(arguments: [
        ("London", 51.5074, -0.1278), ("Dover", 51.1279, 1.3134), ("Ramsgate", 51.3358, 1.4160),
        ("Land's End", 50.0657, -5.7132), ("St Mary's, Scilly", 49.9146, -6.3126), ("St David's", 51.8812, -5.2660),
        ("Belfast", 54.5973, -5.9301), ("Enniskillen", 54.3438, -7.6315), ("Belleek", 54.4775, -8.0940),
        ("Derry", 54.9966, -7.3086), ("Newry", 54.1751, -6.3402), ("Stornoway", 58.2090, -6.3849),
        ("Islay", 55.7560, -6.2800), ("Campbeltown", 55.4255, -5.6050), ("Lerwick", 60.1546, -1.1494),
        ("Whitehaven", 54.5500, -3.5900), ("Mull of Galloway", 54.6350, -4.8570), ("Highlands", 57.5, -5.5), ("St Kilda", 57.8100, -8.5700),
        ("Ventnor, Isle of Wight", 50.5940, -1.2050), ("Selsey Bill", 50.7230, -0.7880),
    ])
    func aPlaceInTheUK_isIncluded(name: String, lat: Double, lng: Double) {
        #expect(UKArea.includesUser(at: Coordinate(lat: lat, lng: lng)), "\(name)")
    }

    @Test(arguments: [
        ("Calais", 50.9513, 1.8587), ("Boulogne", 50.7264, 1.6147), ("Dublin", 53.3498, -6.2603),
        ("Cork", 51.8985, -8.4756), ("Galway", 53.2707, -9.0568), ("Rosslare", 52.2530, -6.3380),
        ("Sligo", 54.2766, -8.4761), ("Dieppe", 49.9229, 1.0775), ("Le Tréport", 50.0600, 1.3700),
        ("Saint-Valery-en-Caux", 49.8700, 0.7100), ("Paris", 48.8566, 2.3522),
        ("Douglas, Isle of Man", 54.1500, -4.4800), ("Ramsey, Isle of Man", 54.3220, -4.3830),
        ("Port Erin, Isle of Man", 54.0850, -4.7530), ("New York", 40.7128, -74.006), ("0,0", 0, 0),
    ])
    func aPlaceOutsideTheUK_isNot(name: String, lat: Double, lng: Double) {
        #expect(!UKArea.includesUser(at: Coordinate(lat: lat, lng: lng)), "\(name)")
    }
}
