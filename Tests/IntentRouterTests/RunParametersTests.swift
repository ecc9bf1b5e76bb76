import IntentRouter
import Messages
import Testing

struct RunParametersTests {
    @Test func cheapest_withoutFuel_usesUnleaded() throws {
        #expect(try RunParameters.call(intent: "CheapestFuel", parameters: nil) == .cheapestFuel(.value(.e10)))
        #expect(try RunParameters.call(intent: "DirectionsToCheapestFuel", parameters: ["fuel": .null]) ==
                .directionsToCheapestFuel(.value(.e10)))
    }

    @Test func cheapest_withCodeOrWord_usesThatFuel() throws {
        #expect(try RunParameters.call(intent: "CheapestFuel", parameters: ["fuel": .string("b7")]) ==
                .cheapestFuel(.value(.b7)))
        #expect(try RunParameters.call(intent: "CheapestFuel", parameters: ["fuel": .string("super diesel")]) ==
                .cheapestFuel(.value(.sdv)))
    }

    @Test func cheapest_withUnknownFuel_isUnsupportedNotAnError() throws {
        #expect(try RunParameters.call(intent: "CheapestFuel", parameters: ["fuel": .string("H2")]) ==
                .cheapestFuel(.unsupported("H2")))
    }

    /// A parameter the intent does not take is refused naming what it takes (it was ignored: a
    /// NearestFuel run with "radius" searched the default radius and answered success).
    @Test func aParameterTheIntentDoesNotTake_isBadRequest() throws {
        #expect(throws: ServiceError(.badRequest,
                                     "NearestFuel takes no parameter \"distance\" (it takes: fuel, miles, radius)")) {
            try RunParameters.call(intent: "NearestFuel", parameters: ["fuel": .string("B7"), "distance": .number(1)])
        }
        #expect(throws: ServiceError(.badRequest, "Help takes no parameter \"fuel\" (it takes: none)")) {
            try RunParameters.call(intent: "Help", parameters: ["fuel": .string("B7")])
        }
        #expect(try RunParameters.call(intent: "NearestFuel", parameters: ["fuel": .string("B7"), "miles": .number(20)])
                == .nearestFuel(.value(.b7), within: .miles(20)))
    }

    /// A reply gives a bare radius ("within 20 then") as `radius`, in the user's unit: run again,
    /// it is read as it was said (CheapestFuel refused it, so a reply could not be replayed).
    @Test func aBareRadius_asARepliesParametersGiveIt_runsInTheUsersUnit() throws {
        #expect(try RunParameters.call(intent: "CheapestFuel", parameters: ["fuel": .string("B7"), "radius": .number(20)])
                == .cheapestFuel(.value(.b7), within: .bare(20)))
        #expect(try RunParameters.call(intent: "SetSearchRadius", parameters: ["radius": .number(8)])
                == .setSearchRadius(.value(.set(.bare(8)))))
        #expect(throws: ServiceError(.badRequest, "give \"miles\" or \"radius\", not both")) {
            try RunParameters.call(intent: "CheapestFuel", parameters: ["miles": .number(5), "radius": .number(8)])
        }
        #expect(throws: ServiceError.self) {
            try RunParameters.call(intent: "CheapestFuel", parameters: ["radius": .string("far")])
        }
    }

    @Test func radius_numberSets_nullClears_absentAsks() throws {
        #expect(try RunParameters.call(intent: "SetSearchRadius", parameters: ["miles": .number(10)]) ==
                .setSearchRadius(.value(.set(.miles(10)))))
        #expect(try RunParameters.call(intent: "SetSearchRadius", parameters: ["miles": .null]) ==
                .setSearchRadius(.value(.clear)))
        #expect(try RunParameters.call(intent: "SetSearchRadius", parameters: [:]) == .setSearchRadius(.missing))
    }

    @Test func unit_stringSets_nullClears() throws {
        #expect(try RunParameters.call(intent: "SetDistanceUnit", parameters: ["unit": .string("km")]) ==
                .setDistanceUnit(.value(.set(.km))))
        #expect(try RunParameters.call(intent: "SetDistanceUnit", parameters: ["unit": .null]) ==
                .setDistanceUnit(.value(.clear)))
    }

    @Test func badParameters_areBadRequests() {
        #expect(throws: ServiceError.self) { try RunParameters.call(intent: "OrderPizza", parameters: nil) }
        #expect(throws: ServiceError.self) {
            try RunParameters.call(intent: "SetSearchRadius", parameters: ["miles": .string("far")])
        }
        #expect(throws: ServiceError.self) {
            try RunParameters.call(intent: "SetDistanceUnit", parameters: ["unit": .string("furlongs")])
        }
        #expect(throws: ServiceError.self) {
            try RunParameters.call(intent: "CheapestFuel", parameters: ["fuel": .number(7)])
        }
    }
}
