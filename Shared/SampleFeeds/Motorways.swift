/// A motorway (or trunk road with services) as a rough polyline of waypoints.
struct Motorway: Sendable {
    let name: String
    let waypoints: [(latitude: Double, longitude: Double)]
}

/// The main motorways, traced coarsely from general knowledge. Service areas are placed along them.
enum Motorways {
    static let all: [Motorway] = [
        Motorway(name: "M1", waypoints: [
            (51.60, -0.25), (51.92, -0.50), (52.08, -0.70), (52.30, -1.10), (52.62, -1.21),
            (52.92, -1.28), (53.30, -1.30), (53.43, -1.36), (53.75, -1.48),
        ]),
        Motorway(name: "M6", waypoints: [
            (52.41, -1.27), (52.52, -1.80), (52.63, -2.06), (52.83, -2.14), (53.06, -2.28),
            (53.22, -2.42), (53.42, -2.56), (53.55, -2.63), (53.78, -2.68), (54.03, -2.78),
            (54.43, -2.60), (54.66, -2.76), (54.93, -2.96),
        ]),
        Motorway(name: "M62", waypoints: [
            (53.40, -2.88), (53.43, -2.56), (53.57, -2.23), (53.68, -1.88), (53.73, -1.73),
            (53.71, -1.27), (53.72, -0.85),
        ]),
        Motorway(name: "M4", waypoints: [
            (51.49, -0.30), (51.48, -0.60), (51.43, -1.00), (51.42, -1.35), (51.53, -1.75),
            (51.51, -2.16), (51.53, -2.55), (51.57, -2.70), (51.58, -2.98), (51.52, -3.21),
            (51.53, -3.60), (51.65, -3.92), (51.74, -4.06),
        ]),
        Motorway(name: "M5", waypoints: [
            (52.48, -2.02), (52.23, -2.18), (51.90, -2.16), (51.53, -2.60), (51.13, -3.00),
            (51.01, -3.10), (50.73, -3.46),
        ]),
        Motorway(name: "M25", waypoints: [
            (51.70, -0.10), (51.68, 0.20), (51.50, 0.28), (51.32, 0.15), (51.27, -0.20),
            (51.33, -0.52), (51.50, -0.50), (51.65, -0.40), (51.70, -0.10),
        ]),
        Motorway(name: "A1(M)", waypoints: [
            (51.75, -0.20), (52.20, -0.30), (52.57, -0.35), (52.90, -0.65), (53.30, -1.00),
            (53.70, -1.30), (54.20, -1.50), (54.55, -1.60), (54.90, -1.60),
        ]),
        Motorway(name: "M11", waypoints: [(51.60, 0.05), (51.85, 0.18), (52.15, 0.13)]),
        Motorway(name: "M3", waypoints: [(51.40, -0.50), (51.27, -1.08), (51.06, -1.31), (50.93, -1.40)]),
        Motorway(name: "M27", waypoints: [(50.93, -1.50), (50.90, -1.30), (50.86, -1.05)]),
        Motorway(name: "M40", waypoints: [
            (51.58, -0.55), (51.62, -0.75), (51.74, -1.05), (52.06, -1.32), (52.28, -1.58), (52.42, -1.77),
        ]),
        Motorway(name: "M20", waypoints: [(51.38, 0.10), (51.28, 0.55), (51.15, 0.87), (51.09, 1.15)]),
        Motorway(name: "M23", waypoints: [(51.30, -0.14), (51.10, -0.18)]),
        Motorway(name: "M18", waypoints: [(53.45, -1.25), (53.58, -1.05)]),
        Motorway(name: "M54", waypoints: [(52.63, -2.06), (52.68, -2.45)]),
        Motorway(name: "M56", waypoints: [(53.38, -2.28), (53.30, -2.65), (53.25, -2.85)]),
        Motorway(name: "M61", waypoints: [(53.53, -2.33), (53.60, -2.50), (53.72, -2.65)]),
        Motorway(name: "M8", waypoints: [(55.86, -4.25), (55.88, -3.90), (55.92, -3.50), (55.94, -3.25)]),
        Motorway(name: "M90", waypoints: [(55.99, -3.40), (56.20, -3.43), (56.38, -3.45)]),
        Motorway(name: "M74", waypoints: [(55.86, -4.10), (55.60, -3.80), (55.33, -3.44), (55.00, -3.08)]),
        Motorway(name: "M1", waypoints: [(54.59, -5.95), (54.50, -6.30), (54.46, -6.75)]),
        Motorway(name: "M2", waypoints: [(54.62, -5.93), (54.80, -6.25)]),
    ]
}

/// One straight piece of a motorway.
struct MotorwaySegment: Sendable {
    let motorway: String
    let start: (latitude: Double, longitude: Double)
    let end: (latitude: Double, longitude: Double)

    var lengthKilometres: Double {
        LocalGeometry.squaredKilometres(start, end).squareRoot()
    }

    /// All segments of all motorways, in table order.
    static let all: [MotorwaySegment] = Motorways.all.flatMap { motorway in
        zip(motorway.waypoints, motorway.waypoints.dropFirst()).map {
            MotorwaySegment(motorway: motorway.name, start: $0, end: $1)
        }
    }
}
