import Messages

// Cases numbered in `allCases` order, for tables indexed by case: a switch, where a dictionary
// keyed by a String-backed enum would hash the case's raw value on every lookup.

extension DialogOutcome {
    var index: Int {
        switch self {
        case .found: 0
        case .directions: 1
        case .noPrices: 2
        case .noLocation: 3
        case .nothingInRange: 4
        case .askFuel: 5
        case .unsupportedFuel: 6
        case .askRadius: 7
        case .radiusOutOfRange: 8
        case .radiusSet: 9
        case .radiusCleared: 10
        case .askUnit: 11
        case .unitSet: 12
        case .unitCleared: 13
        case .confirmForget: 14
        case .forgotten: 15
        case .notForgotten: 16
        case .cancelled: 17
        case .help: 18
        case .pricesUnavailable: 19
        case .locationUnavailable: 20
        case .failure: 21
        case .notUnderstood: 22
        case .outsideCoverage: 23
        case .settingsUnavailable: 24
        case .sessionExpired: 25
        case .nearestFound: 26
        case .nearestDirections: 27
        case .welcome: 28
        case .settingsRead: 29
        case .appNotNamed: 30
        case .namedPlace: 31
        case .settingsUnreadable: 32
        case .settingsUnconfirmed: 33
        case .forgetUnconfirmed: 34
        }
    }
}

extension FuelCode {
    var index: Int {
        switch self {
        case .e10: 0
        case .e5: 1
        case .b7: 2
        case .sdv: 3
        }
    }
}

extension DistanceUnit {
    var index: Int {
        switch self {
        case .miles: 0
        case .km: 1
        }
    }
}
